/**
 * The embedded reference in a process of its own, for benchmarks that measure the client side
 * separately (bench/match-quality.ts). Started with `node --import tsx bench/reference-process.ts`;
 * prints one JSON line `{ url, baseUrls, token, username, password }` on stdout for the parent
 * process (which keeps it to itself; nothing is logged), then on SIGTERM or a closed stdin prints
 * `{ peakRssMb, heapUsedMb }` (its own peak resident memory) and exits.
 */
import { startReference } from '../reference/server.js';
import { REFERENCE_SERVICES } from '../reference/services.js';
import type { ServiceName } from '../specs/common/model.js';

const ref = await startReference();
const baseUrls = Object.fromEntries((Object.keys(REFERENCE_SERVICES) as ServiceName[]).map((s) => [s, ref.baseUrlOf(s)]));
process.stdout.write(`${JSON.stringify({ url: ref.url, baseUrls, token: ref.token, username: ref.auth.username, password: ref.auth.password })}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  const heapUsedMb = process.memoryUsage().heapUsed / 2 ** 20;
  await ref.stop();
  process.stdout.write(`${JSON.stringify({ peakRssMb: process.resourceUsage().maxRSS / 1024, heapUsedMb })}\n`, () => process.exit(0));
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
