/**
 * junit.xml for CI: one <testsuite> per service and area (name "<service>.<area>", properties service and area), one
 * <testcase> per check (classname "<service>.<area>", properties checkId, requirements and verdict). A fail is
 * <failure> whose message is the first line of the failure's text (rule ID and text) and whose body is the whole text
 * (checked, expected, got, exchange) plus the failing exchange: request and reply, redacted, clipped. An error is
 * <error> with the same body; skip and omit are <skipped> with the reason on system-out.
 */
import junitModule, { type Builder } from 'junit-report-builder';
import type { Exchange } from '../harness/reply.js';
import type { CheckResult } from './results.js';
import type { Summary } from './summary.js';
import { targetStatement } from './target.js';
import { loadExchanges } from './view.js';

const MAX = 2000;
const clip = (s: string) => (s.length > MAX ? `${s.slice(0, MAX)}... [${s.length - MAX} more characters]` : s);

/** The exchange a failure came from, in a few lines (request content and reply body, clipped). */
export function exchangeSummary(c: CheckResult, exchanges: Exchange[]): string {
  if (!exchanges.length) return '';
  const n = c.failure?.exchange?.number ?? exchanges.length;
  const x = exchanges[n - 1] ?? exchanges[exchanges.length - 1]!;
  const reply =
    x.error !== undefined
      ? `no reply (${x.error})`
      : `HTTP ${x.reply?.status}: ${clip(JSON.stringify(x.reply?.body ?? x.reply?.text ?? null))}`;
  return [
    `exchange ${n} of ${exchanges.length}: ${x.method} ${x.url} (${x.durationMs} ms)`,
    `  request: ${clip(JSON.stringify(x.request.body))}`,
    `  reply:   ${reply}`,
  ].join('\n');
}

export function writeJunit(s: Summary, file: string, folder: string): void {
  // The package is CommonJS with a default export; under ESM interop it may arrive wrapped once more.
  const root = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as unknown as Builder;
  const builder = root.newBuilder();
  const suites = new Map<string, ReturnType<typeof builder.testSuite>>();
  const ordered = [...s.checks].sort((a, b) => a.service.localeCompare(b.service) || a.area.localeCompare(b.area));
  for (const c of ordered) {
    const key = `${c.service}.${c.area}`;
    let suite = suites.get(key);
    if (!suite) {
      suites.set(key, (suite = builder.testSuite().name(key)));
      suite.property('service', c.service).property('area', c.area).property('target', targetStatement(s.run));
    }
    const tc = suite
      .testCase()
      .className(key)
      .name(c.title)
      .file(c.file)
      .time(c.durationMs / 1000);
    tc.property('checkId', c.checkId);
    tc.property('requirements', c.verifies.join(' '));
    tc.property('verdict', c.verdict);
    if (c.verdict === 'fail' || c.verdict === 'error') {
      const text = c.message ?? c.note ?? c.verdict;
      const body = [text, exchangeSummary(c, loadExchanges(folder, c))].filter(Boolean).join('\n\n');
      if (c.verdict === 'fail')
        tc.failure(text.split('\n')[0], c.failedRequirements.join(' ') || 'ConformanceFailure').stacktrace(body);
      else tc.error(text.split('\n')[0], 'CouldNotJudge', body);
    } else if (c.verdict === 'skip' || c.verdict === 'omit') {
      tc.skipped();
      tc.standardOutput(`${c.verdict}: ${c.note ?? ''}`);
    }
  }
  builder.writeTo(file);
}
