/**
 * Building blocks of report.html: escaping (every text from the run goes through `e`, he.escape), verdict badges,
 * tables, clipping of long bodies, and the page's CSS.
 */
import he from 'he';

export const e = (s: unknown) => he.escape(String(s ?? ''));
export const MAX_BODY = 20000;
export const clip = (text: string, max = MAX_BODY) =>
  text.length > max ? `${text.slice(0, max)}\n... [${text.length - max} more characters]` : text;
/** A coloured label: its class `v` (a verdict, a gate class), its text `text` (default `v`). */
export const badge = (v: string, text = v) => `<span class="badge ${e(v)}">${e(text)}</span>`;
export const td = (html: string) => `<td>${html}</td>`;
/** A check's title without its "[IDs]" suffix (the IDs are shown beside it). */
/** The anchor of a failing check's block. */
export const checkAnchor = (checkId: string) => `check-${checkId}`;

/** A table; `rows` are already-built `<td>` cells, or `{ attrs, cells }` for a row with attributes. */
export function table(head: string[], rows: Array<string[] | { attrs: string; cells: string[] }>, cls = ''): string {
  const tr = (r: string[] | { attrs: string; cells: string[] }) =>
    Array.isArray(r) ? `<tr>${r.join('')}</tr>` : `<tr ${r.attrs}>${r.cells.join('')}</tr>`;
  return `<table${cls ? ` class="${cls}"` : ''}><thead><tr>${head.map((h) => `<th>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows.map(tr).join('')}</tbody></table>`;
}

/** A table of plain values: each escaped into its own cell. */
export const textTable = (head: string[], rows: unknown[][]) =>
  table(
    head,
    rows.map((r) => r.map((c) => td(e(c)))),
  );

export const CSS = `
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1b1f23;background:#f6f8fa}
main{max-width:1180px;margin:0 auto;padding:12px 24px 48px}
header.verdict{padding:14px 24px;color:#fff}header.pass{background:#2e7d32}header.fail{background:#c62828}header.incomplete{background:#ef6c00}
header.interrupted{background:#455a64}header.leftovers{background:#8e0000}header.nothing-ran{background:#616161}
header .facts{opacity:.95}header a{color:#fff}
h1{margin:0;font-size:22px}h2{border-bottom:1px solid #d0d7de;padding-bottom:4px;margin:8px 0 12px}h3{margin:14px 0 8px}
nav#toc{background:#fff;border-bottom:1px solid #d0d7de;padding:6px 24px;position:sticky;top:0;z-index:2;font-size:13px}
nav#toc a{margin-right:14px;white-space:nowrap}nav#toc .fails{color:#c62828;font-weight:600}
section,article,tr{scroll-margin-top:44px}
section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 16px 14px;margin:14px 0}
section section{border:0;padding:0;margin:0}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f0f3f6}pre{background:#f6f8fa;border:1px solid #d0d7de;padding:8px;overflow:auto;max-height:320px;white-space:pre-wrap;word-break:break-word;margin:4px 0}
.badge{display:inline-block;padding:0 6px;border-radius:10px;font-size:12px;font-weight:600;color:#fff;background:#6e7781}
.badge.pass{background:#2e7d32}.badge.fail,.badge.gating{background:#c62828}.badge.error,.badge.incomplete,.badge.could-not-judge{background:#ef6c00}
.badge.interrupted,.badge.nothing-ran{background:#455a64}.badge.leftovers{background:#8e0000}.badge.skip{background:#9e9e9e}
.badge.omit,.badge.untestable,.badge.not-run{background:#90a4ae}.badge.root{background:#6a1b9a}.badge.same-cause,.badge.downstream{background:#8d6e63}
h3.cause{margin:18px 0 4px;padding:4px 8px;background:#fbe9e7;border-radius:4px;font-size:15px}p.place{margin:2px 0 6px;font-size:13px}.badge.uncovered{background:#8e24aa}.badge.known,.badge.pending,.badge.expect-only{background:#5c6bc0}
.charts{display:flex;flex-wrap:wrap;gap:16px}.charts figure{margin:0}.muted{color:#57606a}details{margin:6px 0}summary{cursor:pointer}
.failure{border-left:4px solid #c62828;padding:2px 0 2px 12px;margin:12px 0}
.failure.error,.failure.could-not-judge{border-color:#ef6c00}
.failure.known,.failure.pending,.failure.expect-only{border-color:#5c6bc0}.failure h3{font-size:15px;margin:4px 0}
dl.finding{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0}dl.finding dt{font-weight:600;color:#57606a}dl.finding dd{margin:0}
dl.finding code,dl.finding pre{font-size:12.5px}dl.finding dd.got code,dl.finding dd.expected code{white-space:pre-wrap}dl.finding dd.got code{background:#ffebee}dl.finding dd.expected code{background:#e8f5e9}
details.exchange.failing>summary{font-weight:600}
.state-diagram{margin:8px 0;overflow-x:auto}.state-diagram svg{max-width:100%;height:auto}
.legend span{display:inline-block;margin-right:12px;font-size:12px}.legend i{display:inline-block;width:22px;height:0;border-top:3px solid;vertical-align:middle;margin-right:4px}
.legend i.none{border-top-style:dashed}
form#filter{display:flex;flex-wrap:wrap;gap:16px;align-items:center;font-size:13px;background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:6px 12px;margin:12px 0 0}
form#filter fieldset{border:0;padding:0;margin:0}form#filter legend{float:left;font-weight:600;margin-right:8px}form#filter label{margin-right:8px}
.filtered{display:none!important}
ul.compact{margin:4px 0;padding-left:20px}
`;
