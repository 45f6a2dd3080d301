/**
 * The failing checks of summary.md, by cause (root causes first: report/failure-order.ts): per check its rules, what
 * was checked, expected and got, a walk's replay command and steps, and the exchanges shown with a curl replay and
 * their bodies, folded.
 */
import type { Exchange } from '../harness/reply.js';
import type { Failure } from '../harness/verdict.js';
import { gateWords, shownTitle } from './failure-order.js';
import { mdCell as cell, mdFence as fence } from './md-table.js';
import { type FailureView, placeText } from './view.js';

// Shorter than report.html's clip (html-kit.ts): summary.md goes into CI job summaries, which have a size limit.
const MAX_BODY = 3000;
const clip = (text: string, max = MAX_BODY) =>
  text.length > max ? `${text.slice(0, max)}\n... [${text.length - max} more characters]` : text;

/**
 * The "Failing checks" section of the failures given (report/view.ts failureViews), as lines; none when nothing failed.
 */
export function failuresMarkdown(failures: FailureView[]): string[] {
  if (!failures.length) return [];
  const L = ['', `## Failing checks (${failures.length})${failures.length > 1 ? ', root causes first' : ''}`, ''];
  const titles = new Map(failures.map((f) => [f.check.checkId, f.check.title]));
  let cause = 0;
  for (const f of failures) {
    if (f.place.role === 'root') L.push(causeHeading(f, ++cause), '');
    L.push(...failureMarkdown(f, titles));
  }
  return L;
}

/**
 * The heading of cause number `n`, above its root failure: the requirement, where it broke, how many checks it failed.
 */
export function causeHeading(f: FailureView, n: number): string {
  const checks = 1 + f.place.followers;
  return (
    `### Cause ${n}: ${f.place.requirement}${f.place.operation ? ` at ${f.place.operation}` : ''} (${checks} ` +
    `failing check${checks > 1 ? 's' : ''}${f.gate === 'gating' ? '' : `, ${gateWords(f.gate)}`})`
  );
}

/**
 * One failing check as lines: its heading, its place among the causes, its rules, the failure (or the message of an
 * error), where the check is, and its exchanges. `titles`: check ID to title, to name the check a follower follows.
 */
export function failureMarkdown(f: FailureView, titles: Map<string, string>): string[] {
  const L = [
    `#### ${f.check.verdict.toUpperCase()} (${gateWords(f.gate) || 'gating'}): ${f.check.service} · ` +
      `${cell(shownTitle(f.check))}`,
    '',
  ];
  const place = placeText(f, (id) => titles.get(id) ?? id);
  if (place) L.push(`*${cell(place)}*`, '');
  for (const rule of f.rules) L.push(`- **${rule.id}** (${rule.level}, ${rule.section}): ${cell(rule.text)}`);
  const r = f.check.failure;
  if (r) L.push(...failureReportMarkdown(r));
  else L.push('', fence(clip(f.check.message ?? f.check.note ?? '(no message)')));
  L.push('', `Check \`${f.check.checkId}\` in \`${f.check.file}\`${f.reason ? `; listed: ${cell(f.reason)}` : ''}`);
  for (const x of f.exchanges) L.push(...exchangeMarkdown(x, f.exchangesTotal));
  L.push('');
  return L;
}

/**
 * A structured failure as list items: replay and steps (walks), checked, expected, got, and the exchange it came from.
 */
export function failureReportMarkdown(r: Failure): string[] {
  const L: string[] = [];
  if (r.replay) L.push(`- replay: \`${r.replay}\``);
  if (r.steps?.length) L.push('- steps:', '', fence(r.steps.join('\n')), '');
  if (r.what) L.push(`- checked: ${cell(r.what)}`);
  if (r.expected !== undefined) L.push(`- expected: \`${cell(clip(r.expected, 500))}\``);
  if (r.got !== undefined) L.push(`- got: \`${cell(clip(r.got, 500))}\``);
  // A failing walk step spans several exchanges (listed below), so no single one is named here.
  if (r.exchange && !r.stepExchanges)
    L.push(`- exchange ${r.exchange.number} of ${r.exchange.of}: ${r.exchange.operation} → ${r.exchange.outcome}`);
  return L;
}

/**
 * One exchange of a failing check (number `number` of `total`), folded: its curl replay, request body and reply body.
 */
export function exchangeMarkdown(
  { exchange: e, curl, number, failing }: { exchange: Exchange; curl: string; number: number; failing: boolean },
  total: number,
): string[] {
  const L = [
    '',
    `<details><summary>${failing ? 'Failing exchange' : 'Exchange'} ${number} of ${total}: ${e.operation} → ` +
      `${e.error ? `no reply (${cell(e.error)})` : `HTTP ${e.reply?.status}`} in ${e.durationMs} ms</summary>`,
    '',
    'Replay (set the credential variables first):',
    '',
    fence(curl, 'sh'),
    '',
    'Request body:',
    '',
    fence(clip(JSON.stringify(e.request.body, null, 2)), 'json'),
  ];
  if (e.reply)
    L.push(
      '',
      'Reply body:',
      '',
      fence(clip(e.reply.body !== undefined ? JSON.stringify(e.reply.body, null, 2) : (e.reply.text ?? '')), 'json'),
    );
  L.push('', '</details>');
  return L;
}
