/**
 * requirements.csv of an evidence bundle: one row per requirement of the catalogue (every service), with its level,
 * seed section and sentence, the checks citing it in this run, its outcome, and why it was not tested when it was not
 * (untestable: the catalogue's reason; uncovered: the suite has no check for it; not-run: the run did not select its
 * checks, or did not target its service; omit: why, and for the checks a configured deployment cannot run safely,
 * report/evidence/certification.ts, that they were not run on shared data and why).
 */
import { stringify } from 'csv-stringify/sync';
import type { Summary } from '../summary.js';
import type { Certification } from './certification.js';

export const REQUIREMENTS_HEAD = [
  'id',
  'service',
  'level',
  'section',
  'seed_sentence',
  'checks',
  'outcome',
  'reason_untested',
];

function reason(r: Summary['requirements'][number], s: Summary, c: Certification | undefined): string {
  if (r.outcome === 'untestable') return `untestable: ${r.untestable ?? ''}`;
  const unsafe = c?.notRunOnSharedData.filter((u) => r.checks.includes(u.checkId)) ?? [];
  const why = unsafe.length ? `${unsafe[0]!.why} (profile ${unsafe[0]!.member}: true runs them)` : '';
  if (r.outcome === 'omit' && unsafe.length === r.checks.length) return `not run on shared data: ${why}`;
  if (unsafe.length) return `${unsafe.length} of its ${r.checks.length} checks not run on shared data: ${why}`;
  if (r.outcome === 'omit') {
    const notes = new Set(s.checks.filter((k) => r.checks.includes(k.checkId) && k.note).map((k) => k.note));
    return `omitted: ${[...notes].join('; ')}`;
  }
  if (r.outcome === 'uncovered') return 'no check of the suite covers it yet';
  if (r.outcome === 'not-run')
    return s.coverage[r.service]?.scope === 'none' || s.coverage[r.service]?.scope === 'not configured'
      ? `the run did not test the ${r.service} service`
      : 'the run did not select the checks that cover it';
  return '';
}

/**
 * The CSV of a run's summary; with the certification's judgement, a requirement cited by checks it declares not run on
 * shared data says so and why.
 */
export const requirementsCsv = (s: Summary, certification?: Certification): string =>
  stringify([
    REQUIREMENTS_HEAD,
    ...s.requirements.map((r) => [
      r.id,
      r.service,
      r.level,
      r.section,
      r.text,
      r.checks.join(' '),
      r.outcome,
      reason(r, s, certification),
    ]),
  ]);
