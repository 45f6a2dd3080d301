/**
 * The one live display of a conformance run (vitest.config.ts uses it instead of vitest's own): checks done out of the
 * run's total, failures so far, time and time left, and one line per check that fails or could not judge, as it
 * happens. The total is known once every file of the run has been collected: before the first check in a conformance
 * run, whose one worker collects all its files first (run/vitest/side-by-side-runner.mjs). Until then (several workers
 * collect as they go) the total grows as files are collected and says so, with no estimate of the time left.
 *
 * On a terminal (stdout a TTY, NO_COLOR and CI unset, TERM not "dumb") a cli-progress bar redraws in place, with the
 * failure lines above it. Otherwise plain lines with no control characters: one every `intervalMs` (default 10 s), the
 * failure lines, one at the end. Test output (console.log in a check) and errors vitest reports outside any check (a
 * file that fails to load, an unhandled rejection) are printed too, since vitest's reporter is not there.
 */
import cliProgress from 'cli-progress';
import type { UserConsoleLog } from 'vitest';
import type { Reporter, SerializedError, TestCase, TestModule, TestSpecification } from 'vitest/node';
import { type CheckMeta, INTERRUPTED_NOTE } from '../harness/verdict.js';
import { requirementIndex } from '../specs/services.js';
import { gateClass, gateMark } from './failure-order.js';
import { type KnownFailures, judge, loadKnownFailures } from './known-failures.js';
import { leftOut } from './reporter.js';

export interface ProgressOptions {
  stream?: { write(s: string): unknown; isTTY?: boolean };
  /** Draw a live bar (default: the stream is a TTY, NO_COLOR, CI unset and TERM not dumb). */
  live?: boolean;
  /** Checks in the run, when known before it starts (default: known once every file is collected). */
  total?: number;
  /** The known-failures list (default: CONFORMANCE_KNOWN_FAILURES, as the gate reads it); null: none. */
  known?: KnownFailures | null;
  /** Checks done before the time left is estimated (default ESTIMATE_AFTER_CHECKS, and 5 % of the run). */
  estimateAfter?: number;
  intervalMs?: number;
  now?: () => number;
}

/** True when output should be plain lines: not a terminal, NO_COLOR or CI set, or a dumb terminal. */
export function plainOutput(
  stream: { isTTY?: boolean } = process.stdout,
  env: Record<string, string | undefined> = process.env,
): boolean {
  return !stream.isTTY || 'NO_COLOR' in env || Boolean(env.CI) || env.TERM === 'dumb';
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
/** How often the timer looks whether a line is due (plain output) or redraws the bar's time left, ms. */
const TICK_MS = 1000;

/**
 * Checks that must be done before the time left is estimated, at least: the first checks to end are the quick ones
 * after a start-up of seconds, so an estimate from them is off by a factor (3034 s for a run of 90); and never before
 * ESTIMATE_AFTER_SHARE of the run.
 */
export const ESTIMATE_AFTER_CHECKS = 10;
const ESTIMATE_AFTER_SHARE = 0.05;

const LEVELS = new Map([...requirementIndex()].map(([id, r]) => [id, r.level]));

/**
 * The known-failures list as the gate will read it, or undefined (a bad list stops the run before this reporter runs).
 */
function knownList(): KnownFailures | undefined {
  try {
    return loadKnownFailures();
  } catch {
    return undefined;
  }
}

export default class ProgressReporter implements Reporter {
  private totalKnown: number | undefined;
  private collected = 0;
  private filesInRun: number | undefined;
  private filesCollected = 0;
  private done = 0;
  private failed = 0;
  private started = 0;
  private lastPrint = 0;
  private printed = '';
  private ended = false;
  private interrupted = false;
  /** Checks the interrupt cut short (ended unjudged). */
  private cut = 0;
  private readonly stream: NonNullable<ProgressOptions['stream']>;
  private readonly live: boolean;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private bars?: cliProgress.MultiBar;
  private bar?: cliProgress.SingleBar;

  private readonly known: KnownFailures | undefined;
  private readonly estimateAfter: number;
  /** True when lines are printed (or the bar redrawn) on a timer too: with the real clock (ProgressOptions.now
   * unset). */
  private readonly ticking: boolean;
  private ticker?: NodeJS.Timeout;

  constructor(options: ProgressOptions = {}) {
    this.estimateAfter = options.estimateAfter ?? ESTIMATE_AFTER_CHECKS;
    this.known = options.known === undefined ? knownList() : (options.known ?? undefined);
    this.stream = options.stream ?? process.stdout;
    this.live = options.live ?? !plainOutput(this.stream);
    this.totalKnown = options.total;
    this.intervalMs = options.intervalMs ?? 10000;
    this.now = options.now ?? Date.now;
    this.ticking = options.now === undefined;
  }

  private get total(): number {
    return Math.max(this.totalKnown ?? this.collected, this.done);
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification> = []): void {
    this.started = this.lastPrint = this.now();
    // A file can hold more than one specification (one per project); files are what get collected.
    this.filesInRun = new Set(specifications.map((s) => s.moduleId)).size || undefined;
    // A line every intervalMs, whether or not a check ended (a slow deployment's first checks take long), and the
    // bar's time left kept current.
    if (this.ticking)
      this.ticker = setInterval(() => {
        if (this.ended) return;
        if (this.bar) this.bar.update(this.done, { failed: this.failed, left: this.leftText() });
        else if (this.now() - this.lastPrint >= this.intervalMs) this.print();
      }, TICK_MS).unref();
  }

  /** The live bar, drawn from the first collected file on (the global setup prints its banner before that). */
  private startBar(): void {
    if (!this.live || this.bars) return;
    this.bars = new cliProgress.MultiBar(
      {
        stream: this.stream as NodeJS.WritableStream,
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 50,
        // The time left is ours (leftText), not cli-progress's ETA, which reads "0s left" before any check has ended.
        format: 'conformance [{bar}] {value}/{total} checks | {failed} failed | {duration_formatted} | {left}',
      },
      cliProgress.Presets.shades_classic,
    );
    this.bar = this.bars.create(this.total || 1, 0, { failed: 0, left: this.leftText() });
  }

  onTestModuleCollected(module: TestModule): void {
    this.startBar();
    this.collected += [...module.children.allTests()].filter((t) => t.options.mode !== 'skip').length;
    if (this.totalKnown === undefined && this.filesInRun !== undefined && ++this.filesCollected >= this.filesInRun) {
      this.totalKnown = this.collected;
      // Plain output says at once how many checks the run holds, before the first ends.
      if (!this.live) this.print();
    }
    this.bar?.setTotal(this.total);
  }

  onTestCaseResult(test: TestCase): void {
    // A check an interrupt kept from starting (vitest reports it still pending) was never done.
    if (leftOut(test) || test.result().state === 'pending') return;
    const meta = test.meta().check;
    // Nor was one vitest marked skipped when the run was cancelled before it began (it never registered a check):
    // the summary lists it as not run (report/reporter.ts), so the count of checks done agrees with it.
    if (!meta && test.result().state === 'skipped') return;
    this.startBar();
    // A check the interrupt cut short judged nothing: counted apart, as the summary's headline counts it
    // (report/headline.ts).
    if (meta?.verdict === 'skip' && meta.note?.includes(INTERRUPTED_NOTE)) {
      this.cut++;
      return;
    }
    this.done++;
    const verdict = meta?.verdict ?? (test.result().state === 'failed' ? 'error' : undefined);
    if (verdict === 'fail' || verdict === 'error') {
      this.failed++;
      const ids = verdict === 'fail' ? (meta?.failedRequirements ?? meta?.verifies ?? []) : (meta?.verifies ?? []);
      const label = meta ? this.gateLabel({ ...meta, verdict, failedRequirements: meta.failedRequirements ?? [] }) : '';
      this.log(
        `${verdict === 'fail' ? 'FAIL ' : 'ERROR'} ${meta?.service ?? test.module.moduleId} ` +
          `${ids.join(' ')}${label}: ${test.meta().declared?.title ?? test.name}`,
      );
    }
    if (this.bar) this.bar.update(this.done, { failed: this.failed, left: this.leftText() });
    else if (this.now() - this.lastPrint >= this.intervalMs) this.print();
  }

  /**
   * How the gate will treat a failing check, as the reports mark it (report/failure-order.ts
   * gateMark): the same judgement as the gate's (report/known-failures.ts judge).
   */
  private gateLabel(
    c: Pick<CheckMeta, 'checkId' | 'verifies' | 'couldNotJudge'> & {
      verdict: 'fail' | 'error';
      failedRequirements: string[];
    },
  ): string {
    const g = judge(
      [{ ...c, title: '', file: '', service: '', area: '', durationMs: 0, operations: [] }],
      (id) => LEVELS.get(id),
      this.known,
    );
    return gateMark(gateClass(c.checkId, g));
  }

  onUserConsoleLog(log: UserConsoleLog): void {
    this.log(log.content.replace(/\n$/, ''));
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError> = [], reason?: string): void {
    this.interrupted = reason === 'interrupted';
    if (this.ticker) clearInterval(this.ticker);
    if (this.bar) {
      this.bar.update(this.done, { failed: this.failed, left: this.leftText() });
      // Redraw once more so failure lines still waiting for the next scheduled redraw are written.
      (this.bars as unknown as { update(): void }).update();
      this.bars?.stop();
    }
    for (const m of modules)
      for (const e of m.errors())
        this.write(`conformance: ${m.moduleId} could not run: ${e.message}\n${e.stack ?? ''}\n`);
    for (const e of errors) this.write(`conformance: error outside any check: ${e.message}\n${e.stack ?? ''}\n`);
    this.ended = true;
    if (!this.done || this.bars) return;
    if (this.printed !== this.line()) this.print();
  }

  /**
   * The time left, once enough checks have ended to estimate it ("about 21 s left"; before: "time left: estimating");
   * nothing when the run has ended or was interrupted, or the total is not known yet.
   */
  leftText(): string {
    const total = this.total;
    if (this.totalKnown === undefined || this.done >= total || this.interrupted || this.ended) return '';
    const estimable = this.done >= Math.max(this.estimateAfter, Math.ceil(total * ESTIMATE_AFTER_SHARE));
    if (!estimable) return 'time left: estimating';
    return `about ${seconds(((this.now() - this.started) / this.done) * (total - this.done))} left`;
  }

  /** The progress text, e.g. "conformance: 120/480 checks done (25%), 3 failed, 42 s, about 2 min left". */
  line(): string {
    const elapsed = this.now() - this.started;
    const total = this.total;
    const estimate = this.leftText();
    const left = estimate.startsWith('about') ? `, ${estimate}` : '';
    const of =
      this.totalKnown === undefined
        ? `${this.done}/${total}${this.ended ? '' : ' (total still growing)'}`
        : `${this.done}/${total} (${Math.floor((100 * this.done) / Math.max(1, total))}%)`;
    const cut = this.cut ? `, ${this.cut} cut short` : '';
    return (
      `conformance: ${this.interrupted ? 'interrupted: ' : ''}${of} checks done${cut}, ${this.failed} failed, ` +
      `${seconds(elapsed)}${left}`
    );
  }

  private log(text: string): void {
    if (this.bars) this.bars.log(`${text}\n`);
    else this.write(`${text}\n`);
  }

  private write(text: string): void {
    this.stream.write(text);
  }

  private print(): void {
    this.lastPrint = this.now();
    this.printed = this.line();
    this.write(`${this.printed}\n`);
  }
}
