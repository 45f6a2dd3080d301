/**
 * A progress line for long runs: checks done/total and failures so far. On a terminal it
 * rewrites one line on stderr; when stderr is not a TTY (CI logs) it prints plain lines with no
 * control characters, at most one per `intervalMs` (default 10 s) plus one at the end.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';

export interface ProgressOptions {
  stream?: { write(s: string): unknown; isTTY?: boolean };
  intervalMs?: number;
  now?: () => number;
}

export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;
  private failed = 0;
  private started = 0;
  private lastPrint = 0;
  private printedDone = -1;
  private readonly stream: NonNullable<ProgressOptions['stream']>;
  private readonly tty: boolean;
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(options: ProgressOptions = {}) {
    this.stream = options.stream ?? process.stderr;
    this.tty = Boolean(this.stream.isTTY);
    this.intervalMs = options.intervalMs ?? (this.tty ? 200 : 10000);
    this.now = options.now ?? Date.now;
  }

  onTestRunStart(): void {
    this.started = this.lastPrint = this.now();
  }

  onTestModuleCollected(module: TestModule): void {
    this.total += [...module.children.allTests()].length;
  }

  onTestCaseResult(test: TestCase): void {
    this.done++;
    const state = test.result().state;
    const verdict = (test.meta() as { check?: { verdict?: string } }).check?.verdict;
    if (state === 'failed' || verdict === 'fail' || verdict === 'error') this.failed++;
    if (this.now() - this.lastPrint >= this.intervalMs) this.print();
  }

  onTestRunEnd(): void {
    if (!this.done) return;
    if (this.printedDone !== this.done) this.print();
    if (this.tty) this.stream.write('\n');
  }

  /** The progress text, e.g. "conformance: 120/480 checks done, 3 failed, 42 s". */
  line(): string {
    const secs = Math.round((this.now() - this.started) / 1000);
    return `conformance: ${this.done}/${Math.max(this.total, this.done)} checks done, ${this.failed} failed, ${secs} s`;
  }

  private print(): void {
    this.lastPrint = this.now();
    this.printedDone = this.done;
    this.stream.write(this.tty ? `\r\u001b[2K${this.line()}` : `${this.line()}\n`);
  }
}
