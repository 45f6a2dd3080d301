/**
 * What one finished check leaves for the reports: its operations, lags and retries in its
 * metadata, its exchanges in `exchanges/<check id>.json` of the run folder, and its Allure
 * labels and attachments (harness/allure.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { labelForAllure } from './allure.js';
import type { Check } from './check.js';
import type { CheckMeta } from './verdict.js';

export function recordCheck(meta: CheckMeta, t: Check): void {
  meta.operations = [...new Set(t.exchanges.map((e) => e.operation))];
  if (t.lags.length) meta.lags = t.lags;
  const retries = t.exchanges.reduce((n, e) => n + (e.retries?.length ?? 0), 0);
  if (retries) meta.retries = retries;
  if (t.exchanges.length) {
    const dir = join(t.run.folder, 'exchanges');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${meta.checkId.replace(/\//g, '__')}.json`);
    writeFileSync(file, JSON.stringify(t.exchanges, null, 2));
    meta.exchangesFile = file;
  }
  labelForAllure(meta, t.exchanges);
}
