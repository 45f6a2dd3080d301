/** Shared by the group fixture's files (one worker, isolate: false): which checks run now, by folder (the "service"). */
const running = new Map<string, number>();

/** Runs `body` counted as a running check of `folder`. */
export async function runningIn(folder: string, body: () => Promise<unknown>): Promise<void> {
  running.set(folder, (running.get(folder) ?? 0) + 1);
  try {
    await body();
  } finally {
    running.set(folder, running.get(folder)! - 1);
  }
}

/** Checks of `folder` running now. */
export const runningNow = (folder: string) => running.get(folder) ?? 0;
