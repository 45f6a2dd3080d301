/**
 * How long a process tree's threads ran and how long they waited, runnable, for a CPU (Linux's per-thread schedstat:
 * `/proc/<pid>/task/<tid>/schedstat`, ns on a CPU and ns on a run queue). On a machine shared with other work a run's
 * figures are the machine's more than the suite's when its threads wait for a CPU about as long as they run:
 * `npm run bench:latency` prints both for the suite's busiest thread (the test worker) and for the reference.
 */
import { readFileSync, readdirSync } from 'node:fs';
import pidtree from 'pidtree';

/** Seconds a thread ran and waited for a CPU. */
export interface ThreadTime {
  ran: number;
  waited: number;
}

/** What the threads of a tree did while sampled: the busiest one (longest run) and all of them together. */
export interface CpuWait {
  busiest: ThreadTime;
  all: ThreadTime;
}

/** Each thread's schedstat so far, by `pid/tid`; threads that cannot be read (ended) are left out. */
function threadTimes(pids: number[]): Map<string, ThreadTime> {
  const times = new Map<string, ThreadTime>();
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const [ran, waited] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
        times.set(`${pid}/${tid}`, { ran: (ran ?? 0) / 1e9, waited: (waited ?? 0) / 1e9 });
      } catch {
        // the thread ended between listing and reading
      }
    }
  }
  return times;
}

/**
 * Samples the threads of `pid` and its descendants every `everyMs` until stopped; each thread counts with its last
 * sample (a thread's figures only grow), so threads that end between samples lose at most `everyMs` of their time.
 */
export function sampleCpuWait(pid: number, everyMs = 500): () => Promise<CpuWait> {
  const last = new Map<string, ThreadTime>();
  let sampling = Promise.resolve();
  const sample = async () => {
    try {
      for (const [key, t] of threadTimes(await pidtree(pid, { root: true }))) last.set(key, t);
    } catch {
      // the tree ended: the last samples stand
    }
  };
  const timer = setInterval(() => (sampling = sample()), everyMs);
  void sample();
  return async () => {
    clearInterval(timer);
    await sampling;
    await sample();
    const all = { ran: 0, waited: 0 };
    let busiest = { ran: 0, waited: 0 };
    for (const t of last.values()) {
      all.ran += t.ran;
      all.waited += t.waited;
      if (t.ran > busiest.ran) busiest = t;
    }
    return { busiest, all };
  };
}
