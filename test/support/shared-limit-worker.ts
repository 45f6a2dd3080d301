/**
 * A worker thread of test/shared-limit.test.ts: runs `tasks` tasks of `holdMs` each through a
 * SharedLimit on the buffer it is given, all at once, and reports the most holders it saw.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SharedLimit } from '../../harness/shared-limit.js';

const { buffer, max, tasks, holdMs } = workerData as {
  buffer: SharedArrayBuffer;
  max: number;
  tasks: number;
  holdMs: number;
};
const limit = new SharedLimit(buffer, 0, max);
let most = 0;
await Promise.all(
  Array.from({ length: tasks }, () =>
    limit.run(async () => {
      most = Math.max(most, limit.inFlight);
      await new Promise((r) => setTimeout(r, holdMs));
    }),
  ),
);
parentPort!.postMessage({ most, done: tasks });
