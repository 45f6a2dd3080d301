/**
 * One failing check in report.html (anchor `check-<check ID>`, data-verdict and data-service for the filter): its
 * verdict and how the gate treats it, and its place among the run's failures (root cause, same cause, downstream:
 * report/failure-order.ts); then the finding as a reviewer reads it: each broken rule (ID linked to its requirement
 * row, level, seed section, text), for a walk the replay command and the numbered steps, what was checked, expected,
 * got, and the exchange it came from; then the exchanges themselves (request, reply, curl replay), the failing one
 * marked. A check without a structured failure (an error, a report from an older run) shows its message.
 */
import { exchangeOutcome } from '../harness/failure.js';
import { badge, checkAnchor, clip, e } from './html-kit.js';
import { type FailureView, placeText } from './view.js';
import { gateWords, shownTitle } from './failure-order.js';

const exchangeAnchor = (checkId: string, n: number) => `x-${checkId}-${n}`;

function finding(f: FailureView): string {
  const r = f.check.failure;
  const rows: string[] = [];
  const row = (label: string, html: string, cls = label) =>
    rows.push(`<dt>${e(label)}</dt><dd class="${cls}">${html}</dd>`);
  for (const rule of f.rules)
    row(
      'rule',
      `<a href="#req-${e(rule.id)}"><strong>${e(rule.id)}</strong></a> <span class="muted">${e(rule.level)} · ` +
        `${e(rule.section)}</span><br>${e(rule.text)}`,
    );
  if (!r) {
    row(
      f.check.verdict === 'error' ? 'could not judge' : 'message',
      `<pre class="message">${e(clip(f.check.message ?? f.check.note ?? '(no message)'))}</pre>`,
      'message',
    );
  } else {
    if (r.replay) row('replay', `<pre class="replay">${e(r.replay)}</pre>`);
    if (r.steps?.length) row('steps', `<pre class="steps">${e(r.steps.join('\n'))}</pre>`);
    if (r.what) row('checked', e(r.what));
    if (r.expected !== undefined) row('expected', `<code>${e(clip(r.expected, 2000))}</code>`);
    if (r.got !== undefined) row('got', `<code>${e(clip(r.got, 2000))}</code>`);
    const failing = f.exchanges.find((x) => x.failing);
    if (r.stepExchanges)
      row(
        'exchanges',
        `<a href="#${e(exchangeAnchor(f.check.checkId, r.stepExchanges[0]))}">${r.stepExchanges[0]}-${r.stepExchanges[1]} ` +
          `of ${f.exchangesTotal}</a>: the failing step's`,
        'exchange',
      );
    else if (r.exchange)
      row(
        'exchange',
        `<a href="#${e(exchangeAnchor(f.check.checkId, r.exchange.number))}">${r.exchange.number} of ` +
          `${r.exchange.of}</a>: ${e(r.exchange.operation)} → ` +
          `${e(failing ? exchangeOutcome(failing.exchange) : r.exchange.outcome)}`,
      );
  }
  return `<dl class="finding">${rows.join('')}</dl>`;
}

/** Links a failure's place to the failure it follows ("same cause", "downstream"). */
function placeHtml(f: FailureView, titles: Map<string, string>): string {
  const text = placeText(f, (id) => titles.get(id) ?? id);
  if (!text) return '';
  const cause = f.place.cause;
  const linked = cause
    ? e(text).replace(
        e(`"${titles.get(cause.checkId) ?? cause.checkId}"`),
        `<a href="#${e(checkAnchor(cause.checkId))}">${e(`"${titles.get(cause.checkId) ?? cause.checkId}"`)}</a>`,
      )
    : e(text);
  return `<p class="place ${e(f.place.role)}">${badge(f.place.role)} ${linked}</p>`;
}

/**
 * @param titles check ID -> title (without its IDs) of the run's failing checks, for the line that links a failure to
 *   the one it follows
 */
export function failureHtml(f: FailureView, titles: Map<string, string> = new Map()): string {
  const out: string[] = [];
  const c = f.check;
  out.push(
    `<article class="failure ${e(c.verdict)} ${e(f.gate)} ${e(f.place.role)}" id="${e(checkAnchor(c.checkId))}" ` +
      `data-verdict="${e(c.verdict)}" data-service="${e(c.service)}">`,
  );
  out.push(
    `<h3>${badge(c.verdict)} ${badge(f.gate, gateWords(f.gate) || 'gating')} ${e(c.service)} · ` +
      `${e(shownTitle(c))}</h3>`,
  );
  out.push(placeHtml(f, titles));
  out.push(finding(f));
  const block = ({ exchange: x, curl, number, failing }: FailureView['exchanges'][number]) => {
    const label =
      `${failing ? (c.failure?.stepExchanges ? 'Failing step, exchange' : 'Failing exchange') : 'Exchange'} ` +
      `${number} of ${f.exchangesTotal}`;
    const parts = [
      `<details class="exchange${failing ? ' failing' : ''}" ` +
        `id="${e(exchangeAnchor(c.checkId, number))}"><summary>${e(label)}: ${e(x.operation)} → ` +
        `${e(exchangeOutcome(x))}</summary>`,
    ];
    parts.push(
      `<p>Request ${e(x.method)} <code>${e(x.url)}</code></p><pre ` +
        `class="request">${e(clip(JSON.stringify({ headers: x.request.headers, body: x.request.body }, null, 2)))}</pre>`,
    );
    if (x.reply)
      parts.push(
        `<p>Reply HTTP ${e(x.reply.status)}</p><pre ` +
          `class="reply">${e(clip(JSON.stringify({ headers: x.reply.headers, body: x.reply.body ?? x.reply.text }, null, 2)))}</pre>`,
      );
    parts.push(`<p>Replay (set the credential variables first):</p><pre class="curl">${e(curl)}</pre></details>`);
    return parts.join('\n');
  };
  // The exchange the failure came from first; the ones around it folded in one line.
  const first = f.exchanges.find((x) => x.failing) ?? f.exchanges.at(-1);
  if (first) out.push(block(first));
  const rest = f.exchanges.filter((x) => x !== first);
  if (rest.length)
    out.push(
      `<details class="context"><summary>${rest.length} more exchange${rest.length > 1 ? 's' : ''} ` +
        `${c.failure?.stepExchanges ? 'of the failing step' : 'before it'} ` +
        `(${rest.map((x) => x.number).join(', ')})</summary>${rest.map(block).join('\n')}</details>`,
    );
  out.push(
    `<p class="muted">Check <code>${e(c.checkId)}</code> in ` +
      `<code>${e(c.file)}</code>${f.reason ? `; listed: ${e(f.reason)}` : ''}${c.exchangesFile ? `; all ${f.exchangesTotal} exchanges in <code>${e(c.exchangesFile)}</code>` : ''}</p>`,
  );
  out.push('</article>');
  return out.join('\n');
}
