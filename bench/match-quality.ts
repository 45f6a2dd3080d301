/**
 * Match-quality benchmark figures (printed, never asserted): for each size, one child process runs
 * the whole benchmark against the embedded reference (build data, post, search sample, read back,
 * score with bootstrap intervals, hard-delete) and reports wall time, peak RSS and the headline
 * figures. Usage: `npx tsx bench/match-quality.ts [--service person] [--preset realistic]
 * [--sizes 2000,10000] [--seed 1]`. Peak RSS includes the in-process reference deployment.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { PresetName } from '../generators/linkage/dataset.js';
import type { ServiceName } from '../specs/common/model.js';

const { values } = parseArgs({
  options: { service: { type: 'string', default: 'person' }, preset: { type: 'string', default: 'realistic' }, sizes: { type: 'string', default: '2000,10000' }, seed: { type: 'string', default: '1' }, child: { type: 'string' } },
});

async function child(size: number): Promise<void> {
  const { loadProfile, resolveProfile } = await import('../harness/profile.js');
  const { RunContext, newRunId } = await import('../harness/run.js');
  const { runBenchmark } = await import('../harness/linkage/benchmark.js');
  const { referenceTarget } = await import('../harness/deployments.js');
  const { startReference } = await import('../reference/server.js');
  const profile = resolveProfile(loadProfile(), true);
  const reference = await startReference();
  const run = new RunContext(newRunId(), mkdtempSync(join(tmpdir(), 'mq-bench-')));
  const service = values.service as ServiceName;
  const started = performance.now();
  const r = await runBenchmark({
    service, preset: values.preset as PresetName, size, seed: Number(values.seed), searchSample: 400, maxSearchResults: 10, resamples: 1000,
    target: referenceTarget(reference, service, profile), profile, run, maxInFlight: 8, timeoutMs: 60000, folder: join(run.folder, 'match-quality', service),
  });
  const seconds = (performance.now() - started) / 1000;
  await reference.stop();
  const m = r.analysis.metrics;
  console.log(JSON.stringify({
    size, records: r.dataset.records.length, truePairs: r.analysis.sampleSizes.truePairs, seconds, peakRssMb: process.resourceUsage().maxRSS / 1024,
    timings: r.observation.timings, failures: r.observation.failures.post + r.observation.failures.read,
    precision: m['pairwise.precision'], recall: m['pairwise.recall'], f1: m['pairwise.f1'], b3f: m['b3.f'],
  }));
}

if (values.child) await child(Number(values.child));
else {
  console.log(`match-quality benchmark: ${values.service}, preset ${values.preset}, seed ${values.seed}, embedded reference, one child process per size`);
  for (const size of values.sizes!.split(',').map(Number)) {
    const out = spawnSync(process.execPath, ['--import', 'tsx', 'bench/match-quality.ts', '--child', String(size), '--service', values.service!, '--preset', values.preset!, '--seed', values.seed!], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const line = out.stdout.trim().split('\n').at(-1) ?? '';
    let r: any;
    try {
      r = JSON.parse(line);
    } catch {
      console.log(`size ${size}: child failed (exit ${out.status})\n${out.stderr.slice(-2000)}`);
      continue;
    }
    const pct = (x: { value: number; low: number; high: number }) => `${(x.value * 100).toFixed(2)}% [${(x.low * 100).toFixed(2)}, ${(x.high * 100).toFixed(2)}]`;
    const t = r.timings;
    console.log(
      `${String(size).padStart(6)} entities, ${r.records} records, ${r.truePairs} true pairs: ${r.seconds.toFixed(1)} s ` +
        `(post ${(t.postMs / 1000).toFixed(1)}, search ${(t.searchMs / 1000).toFixed(1)}, read ${(t.readMs / 1000).toFixed(1)}, clean-up ${(t.cleanupMs / 1000).toFixed(1)}), peak RSS ${r.peakRssMb.toFixed(0)} MB` +
        `\n        precision ${pct(r.precision)}, recall ${pct(r.recall)}, F1 ${pct(r.f1)}, B3 F ${pct(r.b3f)}${r.failures ? `, ${r.failures} failed requests` : ''}`,
    );
  }
}
