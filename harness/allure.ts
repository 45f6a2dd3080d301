/**
 * Allure metadata of one finished check: labels (service, area, verdict, operations),
 * requirement links (URL from the reporter's link template, report/reporters.ts) and, when it
 * did not pass, its exchanges as an attachment.
 */
import * as allure from 'allure-js-commons';
import type { Exchange } from './reply.js';
import type { CheckMeta } from './verdict.js';

export function labelForAllure(meta: CheckMeta, exchanges: Exchange[]): void {
  void allure.label('service', meta.service);
  void allure.label('area', meta.area);
  void allure.label('verdict', meta.verdict ?? 'error');
  for (const op of meta.operations ?? []) void allure.label('operation', op);
  for (const id of meta.verifies) void allure.link(id, id, 'requirement');
  if (meta.verdict !== 'pass' && exchanges.length) void allure.attachment('exchanges', JSON.stringify(exchanges, null, 2), 'application/json');
}
