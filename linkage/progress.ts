/**
 * Progress of a benchmark phase: a cli-progress bar on a terminal, plain lines (every 10%) when the output is not a TTY
 * (CI logs), nothing when quiet.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  tick(n?: number): void;
  stop(): void;
}

export type ProgressFactory = (label: string, total: number) => Progress;

export const quietProgress: ProgressFactory = () => ({ tick() {}, stop() {} });

export const consoleProgress: ProgressFactory = (label, total) => {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label.padEnd(22)} [{bar}] {percentage}% {value}/{total} {duration_formatted}`,
        stream: process.stderr,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0);
    return { tick: (n = 1) => bar.increment(n), stop: () => bar.stop() };
  }
  let done = 0;
  let nextMark = 0.1;
  const started = Date.now();
  return {
    tick(n = 1) {
      done += n;
      while (total > 0 && done / total >= nextMark - 1e-9) {
        console.error(
          `${label}: ${done}/${total} (${Math.round(nextMark * 100)}%, ` +
            `${((Date.now() - started) / 1000).toFixed(1)} s)`,
        );
        nextMark += 0.1;
      }
    },
    stop() {},
  };
};
