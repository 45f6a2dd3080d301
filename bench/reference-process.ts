/**
 * The embedded reference in a process of its own, for benchmarks that measure the client side
 * separately (bench/match-quality.ts, bench/latency.ts). Started with `node --import tsx
 * bench/reference-process.ts [--serialized search=10,post=8,change=5,read=0.9]` (`--serialized`:
 * one request at a time, each holding one lock for its operation's handling time,
 * reference/variants/serialized.ts; an empty value takes the default times); prints one JSON line
 * `{ url, baseUrls, token, username, password }` on stdout for the parent process (which keeps it
 * to itself; nothing is logged). Each line `heap` on stdin is answered with `{ liveHeapMb }` (heap
 * in use after a full garbage collection when run with --expose-gc); on SIGTERM or a closed stdin
 * it prints `{ peakRssMb, requests, answeringMs, lockMs, occupancy }` (its own peak resident
 * memory, the requests it received per service: every attempt, whoever sent it, the time it spent
 * answering them and, serialized, waiting for and holding the lock, ms summed per service, and the
 * requests in flight per service and second, reference/occupancy.ts) and exits.
 */
import { createInterface } from 'node:readline';
import { startReference } from '../reference/server.js';
import { REFERENCE_SERVICES } from '../reference/services.js';
import { parseHandlingTimes } from '../reference/variants/serialized.js';
import type { ServiceName } from '../specs/common/model.js';

const at = process.argv.indexOf('--serialized');
const ref = await startReference(at < 0 ? {} : { serialized: parseHandlingTimes(process.argv[at + 1] ?? '') });
const baseUrls = Object.fromEntries(
  (Object.keys(REFERENCE_SERVICES) as ServiceName[]).map((s) => [s, ref.baseUrlOf(s)]),
);
process.stdout.write(
  `${JSON.stringify({ url: ref.url, baseUrls, token: ref.token, username: ref.auth.username, password: ref.auth.password })}\n`,
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await ref.stop();
  process.stdout.write(
    `${JSON.stringify({
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      requests: ref.requestsReceived(),
      answeringMs: ref.answeringMs(),
      lockMs: ref.lockMs(),
      occupancy: ref.occupancy(),
    })}\n`,
    () => process.exit(0),
  );
};
process.on('SIGTERM', () => void stop());
const commands = createInterface({ input: process.stdin });
commands.on('line', (line) => {
  if (line.trim() !== 'heap') return;
  (globalThis as { gc?: () => void }).gc?.();
  process.stdout.write(`${JSON.stringify({ liveHeapMb: process.memoryUsage().heapUsed / 2 ** 20 })}\n`);
});
commands.on('close', () => void stop());
