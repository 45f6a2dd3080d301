/**
 * A mutation measure of the embedded reference (`npm run mutation`): the behaviour files are
 * instrumented with every mutant (instrument.ts), a seeded sample of the mutants is drawn
 * (sample.ts), and the conformance suite is run once per mutant in a sandbox holding the
 * instrumented files (sandbox.ts, conformance-run.ts), with that mutant switched on.
 *
 * Each mutant runs only the services it can reach, so that a run is as cheap as it can honestly
 * be: first a **coverage pass** runs the suite of each service against the unmutated instrumented
 * reference and records which mutants that service's run reaches; a mutant then runs the suites of
 * the services whose clean run reached it, within the services its file can serve at all
 * (behaviour.ts servicesOfFile: module code is reached by every run, but person.ts serves only
 * person). A mutant no clean run reaches cannot change any reply of those runs (the runs are seeded
 * alike) and is a survivor with no coverage, as Stryker counts it, without a run. Every run stops at
 * its first failing check (vitest --bail 1); when that failure does not gate (an EXPECT
 * requirement), the run is repeated without bail, so that no gating check is left unrun. A crash
 * or a timeout (which name no requirement) counts only when a second run kills the mutant too (a timeout's second run
 * has twice the time).
 */
import type { ServiceName } from '../../specs/common/model.js';
import { ALL_SERVICES, pickFiles, servicesOfFile } from './behaviour.js';
import { type RunResult, runConformance } from './conformance-run.js';
import { readCoverage } from './coverage.js';
import { type MutantInfo, instrument } from './instrument.js';
import { type Journal, openJournal } from './journal.js';
import { bailedOnNonGating, type Verdict, verdictOf } from './outcome.js';
import type { MutantResult, Status } from './result.js';
import { sampleOf } from './sample.js';
import { makeSandbox } from './sandbox.js';

export interface MeasureOptions {
  root: string;
  /** Files or folders under reference/ to mutate (default: every behaviour file). */
  files?: string[];
  /** Exact mutants to measure, by stable ID (instead of a sample). */
  mutantIds?: string[];
  /** Mutants to draw (default: all). */
  sample?: number;
  /** Seed of the sample. */
  seed: number;
  /** Seed of every run's generated data (CONFORMANCE_SEED). */
  runSeed: number;
  /** Start no mutant's run after this many ms from the start. */
  timeLimitMs?: number;
  /** Each run's own time limit, ms (default: three times the clean runs of its services, at least 60 s). */
  runTimeLimitMs?: number;
  /** Run the coverage pass (default true); without it every mutant runs its file's services. */
  coverage?: boolean;
  /** Only these services' suites (default: all the mutant can reach). */
  services?: ServiceName[];
  /** Every mutant runs every service its file can serve, whatever coverage says (measures the coverage shortcut). */
  allServices?: boolean;
  /** A sandbox of its own (a test beside a measure of the same checkout). */
  label?: string;
  /** A journal file: results are appended as they come, and a measure of the same project resumes from it. */
  journal?: string;
  onProgress?: (event: ProgressEvent) => void;
  /** Polled between runs: true stops the measure (an interrupt). */
  stopped?: () => boolean;
}

export type ProgressEvent =
  | { kind: 'instrumented'; files: number; mutants: number; selected: number }
  | { kind: 'clean'; service: ServiceName; ms: number; reached: number }
  | { kind: 'mutant'; done: number; of: number; result: MutantResult };

export interface Measure {
  files: string[];
  /** Mutants of the files. */
  total: number;
  /** Every mutant of the files (the triage is resolved against them). */
  mutants: MutantInfo[];
  selected: MutantInfo[];
  results: MutantResult[];
  /** Selected mutants not run: the time limit passed, or the measure was stopped. */
  notRun: MutantInfo[];
  /** Clean run of each service in the coverage pass, ms. */
  cleanMs: Partial<Record<ServiceName, number>>;
  wallMs: number;
}

/** The mutants to measure: the ones named, or a seeded sample. @throws Error naming an unknown ID */
function select(all: MutantInfo[], o: MeasureOptions): MutantInfo[] {
  if (!o.mutantIds?.length) return sampleOf(all, o.sample ?? all.length, o.seed);
  const byId = new Map(all.map((m) => [m.id, m]));
  const unknown = o.mutantIds.filter((id) => !byId.has(id));
  if (unknown.length)
    throw new Error(`no mutant of the files picked has the ID ${unknown.join(', ')} (npm run mutation -- --list)`);
  return o.mutantIds.map((id) => byId.get(id)!);
}

/** The services a mutant runs, given what the coverage pass saw (undefined: no pass). */
function servicesFor(m: MutantInfo, o: MeasureOptions, reached?: Map<ServiceName, Set<string>>): ServiceName[] {
  const allowed = servicesOfFile(m.file).filter((s) => !o.services || o.services.includes(s));
  if (o.allServices || !reached) return allowed;
  return allowed.filter((s) => reached.get(s)?.has(m.switchId));
}

/** Runs the coverage pass over `services`. @throws Error when a clean run fails: the score would mean nothing */
async function coveragePass(sandbox: string, services: ServiceName[], o: MeasureOptions) {
  const reached = new Map<ServiceName, Set<string>>();
  const cleanMs: Partial<Record<ServiceName, number>> = {};
  for (const service of services) {
    const run = await runConformance({
      sandbox,
      services: [service],
      seed: o.runSeed,
      bail: false,
      coverage: true,
      timeLimitMs: 900000,
      label: `clean-${service}`,
    });
    if (run.code !== 0)
      throw new Error(
        `the clean run of ${service} against the instrumented reference did not pass (exit ${run.code}): ${run.output.trimEnd().split('\n').slice(-8).join('\n')}`,
      );
    reached.set(service, readCoverage(sandbox));
    cleanMs[service] = run.ms;
    o.onProgress?.({ kind: 'clean', service, ms: run.ms, reached: reached.get(service)!.size });
  }
  return { reached, cleanMs };
}

/** Runs one mutant on `services` and judges it. */
async function runMutant(
  sandbox: string,
  m: MutantInfo,
  services: ServiceName[],
  limitMs: number,
  o: MeasureOptions,
): Promise<Verdict> {
  const request = { sandbox, services, seed: o.runSeed, activeMutant: m.switchId, label: `m${m.switchId}` };
  const once = async (timeLimitMs: number): Promise<Verdict> => {
    let run: RunResult = await runConformance({ ...request, timeLimitMs, bail: true });
    if (bailedOnNonGating(run)) run = await runConformance({ ...request, timeLimitMs, bail: false });
    return verdictOf(run, timeLimitMs);
  };
  const first = await once(limitMs);
  // A crash or a timeout names no requirement: it counts only when a second run kills too (a timeout's with twice the
  // time), so that a run upset by the machine (a loaded core, a cache written by another process) kills nothing.
  if (!(first.status === 'timeout' || (first.status === 'killed' && first.kind === 'crash'))) return first;
  const second = await once(first.status === 'timeout' ? 2 * limitMs : limitMs);
  if (second.status === 'survived')
    return { status: 'survived', reason: `${first.reason}; a second run: ${second.reason}` };
  return second.status === 'killed' && second.kind === 'gate' ? second : first;
}

/** Instruments, samples, runs the coverage pass and every selected mutant. @throws Error on a bad selection or a failing clean run */
export async function measure(o: MeasureOptions): Promise<Measure> {
  const started = Date.now();
  const files = pickFiles(o.root, o.files);
  const instrumented = await instrument(o.root, files);
  const selected = select(instrumented.mutants, o);
  o.onProgress?.({
    kind: 'instrumented',
    files: files.length,
    mutants: instrumented.mutants.length,
    selected: selected.length,
  });
  const journal: Journal | undefined = o.journal ? openJournal(o.root, o.journal, o.runSeed) : undefined;
  const sandbox = makeSandbox(o.root, instrumented.files, o.label);
  const results: MutantResult[] = [];
  const notRun: MutantInfo[] = [];
  try {
    const pending = selected.filter((m) => !journal?.done.has(m.id));
    const needed = [...new Set(pending.flatMap((m) => servicesFor(m, o)))].sort(
      (a, b) => ALL_SERVICES.indexOf(a) - ALL_SERVICES.indexOf(b),
    );
    const pass = o.coverage === false || !needed.length ? undefined : await coveragePass(sandbox.root, needed, o);
    for (const m of selected) {
      const earlier = journal?.done.get(m.id);
      if (earlier) {
        results.push({ ...earlier, mutant: m, resumed: true });
        continue;
      }
      if (o.stopped?.() || (o.timeLimitMs !== undefined && Date.now() - started > o.timeLimitMs)) {
        notRun.push(m);
        continue;
      }
      const services = servicesFor(m, o, pass?.reached);
      const limitMs =
        o.runTimeLimitMs ?? Math.max(60000, 3 * services.reduce((t, s) => t + (pass?.cleanMs[s] ?? 60000), 0));
      const t0 = Date.now();
      const verdict: Verdict = services.length
        ? await runMutant(sandbox.root, m, services, limitMs, o)
        : { status: 'survived', reason: 'no clean run of the services its file serves reaches it' };
      if (o.stopped?.()) {
        notRun.push(m);
        continue;
      }
      const status: Status = !services.length ? 'no-coverage' : verdict.status;
      const kind = verdict.status === 'killed' ? { kind: verdict.kind } : {};
      const result: MutantResult = {
        mutant: m,
        status,
        reason: verdict.reason,
        ...kind,
        services,
        ms: Date.now() - t0,
      };
      results.push(result);
      journal?.append(result);
      o.onProgress?.({ kind: 'mutant', done: results.length, of: selected.length, result });
    }
    return {
      files,
      total: instrumented.mutants.length,
      mutants: instrumented.mutants,
      selected,
      results,
      notRun,
      cleanMs: pass?.cleanMs ?? {},
      wallMs: Date.now() - started,
    };
  } finally {
    sandbox.remove();
  }
}
