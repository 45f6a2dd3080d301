/**
 * Allure metadata of one finished check: the tree service → area → operation (parentSuite, suite, subSuite, and the
 * same as epic, feature, story for the Behaviors view), labels service, area, verdict and every operation sent, one
 * link per cited requirement (URL from the reporter's link template, run/vitest/reporters.ts) and, when it did not
 * pass, its exchanges as an attachment.
 *
 * Its Allure status comes from the error the check threw (allure-vitest's getStatusFromError): a ConformanceFailure
 * carries `expected`/`actual` (harness/failure.ts), so it is "failed"; CouldNotJudge and suite bugs are "broken"; skip
 * and omit are "skipped".
 */
import * as allure from 'allure-js-commons';
import type { ServiceName } from '../specs/common/model.js';
import { SERVICES } from '../specs/services.js';
import type { Exchange } from './reply.js';
import type { CheckMeta } from './verdict.js';

/** Operations a check sends only to set up or read back (they name no check's subject). */
const SETUP = new Set(['postIdentity', 'nativeIdQuery', 'identityIdQuery']);

/**
 * The operation a check is filed under: for a failure, the operation it failed at (a walk's failing step, e.g.
 * mergeIdentities, not the first operation of the walk); else the first operation named by the seed section of a cited
 * requirement (e.g. "States and transitions, mergeIdentities"), else named in a cited rule's text, else the first
 * operation it sent other than set-up and read-back, else the first it sent.
 */
export function subjectOperation(meta: Pick<CheckMeta, 'service' | 'verifies' | 'operations' | 'failure'>): string {
  const spec = SERVICES[meta.service as ServiceName];
  const ops: string[] = spec?.operations.map((o) => o.name) ?? [];
  const failedAt = meta.failure?.operation;
  if (failedAt && ops.includes(failedAt)) return failedAt;
  const rules = meta.verifies.map((id) => spec?.requirements.find((r) => r.id === id)).filter((r) => r !== undefined);
  const named = (text: string) =>
    ops.filter((op) => new RegExp(`\\b${op}\\b`).test(text)).sort((a, b) => text.indexOf(a) - text.indexOf(b))[0];
  for (const r of rules) {
    const hit = named(r.section);
    if (hit) return hit;
  }
  for (const r of rules) {
    const hit = named(r.text);
    if (hit) return hit;
  }
  const sent = meta.operations ?? [];
  return sent.find((op) => !SETUP.has(op)) ?? sent[0] ?? 'no operation';
}

export function labelForAllure(meta: CheckMeta, exchanges: Exchange[]): void {
  const operation = subjectOperation(meta);
  void allure.parentSuite(meta.service);
  void allure.suite(meta.area);
  void allure.subSuite(operation);
  void allure.epic(meta.service);
  void allure.feature(meta.area);
  void allure.story(operation);
  void allure.label('service', meta.service);
  void allure.label('area', meta.area);
  void allure.label('verdict', meta.verdict ?? 'error');
  // The teardown finds the check's result by it, to add how the gate treats it (report/allure-run.ts).
  void allure.label('checkId', meta.checkId);
  for (const op of meta.operations ?? []) void allure.label('operation', op);
  for (const id of meta.verifies) void allure.link(id, id, 'requirement');
  if (meta.verdict !== 'pass' && exchanges.length)
    void allure.attachment('exchanges', JSON.stringify(exchanges, null, 2), 'application/json');
}
