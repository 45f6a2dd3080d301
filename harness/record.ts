/**
 * What one finished check leaves for the reports: its operations, lags and retries in its metadata, its exchanges in
 * `exchanges/` of the run folder (harness/exchange-file.ts: in full, gzip'ed, for the checks CONFORMANCE_EXCHANGES
 * keeps; as one summary line per exchange for the others), and its Allure labels and attachments (harness/allure.ts;
 * exchanges attached only when kept in full).
 */
import { labelForAllure } from './allure.js';
import type { Check } from './check.js';
import type { ExchangesKept } from './config.js';
import { writeExchanges } from './exchange-file.js';
import type { CheckMeta } from './verdict.js';

/**
 * True when a check with this verdict keeps its exchanges in full: every check (all), the ones that did not pass
 * (failing), none.
 */
export function keepsInFull(kept: ExchangesKept, verdict: CheckMeta['verdict']): boolean {
  if (kept === 'all') return true;
  if (kept === 'none') return false;
  return verdict === 'fail' || verdict === 'error' || verdict === 'skip' || verdict === undefined;
}

export function recordCheck(meta: CheckMeta, t: Check, kept: ExchangesKept = 'failing'): void {
  // The operations the check sent: its exchanges, and those it kept no copy of (the steps of a walk or a
  // state-table script, also a shared script's run: scenarios/shared/shared-script.ts), which the state
  // diagram colours a transition by (report/state-diagram.ts).
  meta.operations = [...new Set([...t.exchanges, ...t.asideLines].map((e) => e.operation))];
  if (t.lags.length) meta.lags = t.lags;
  const retries = t.exchanges.reduce((n, e) => n + (e.retries?.length ?? 0), 0);
  if (retries) meta.retries = retries;
  meta.requests = t.requestsSent;
  if (t.categories.size) meta.categories = [...t.categories].sort();
  if (t.situations) meta.situations = t.situations;
  const full = keepsInFull(kept, meta.verdict);
  const file = writeExchanges(t.run.folder, meta.checkId, t.exchanges, full, t.asideLines);
  if (file && full && t.exchanges.length) meta.exchangesFile = file;
  labelForAllure(meta, full ? t.exchanges : []);
}
