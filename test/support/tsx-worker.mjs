// Entry of a worker thread that runs a TypeScript module (workerData.module): Node 20 does not
// pass --import to worker threads, so tsx's loader is registered here first.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
