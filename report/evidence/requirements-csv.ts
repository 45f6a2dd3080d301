/**
 * requirements.csv of an evidence bundle: one row per requirement of the catalogue (every service), with its level,
 * seed section and sentence, the checks citing it in this run, its outcome, and why it was not tested when it was not
 * (untestable: the catalogue's reason; uncovered: the suite has no check for it; not-run: the run did not select its
 * checks, or did not target its service).
 */
import { stringify } from 'csv-stringify/sync';
import type { Summary } from '../summary.js';

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

function reason(r: Summary['requirements'][number], s: Summary): string {
  if (r.outcome === 'untestable') return `untestable: ${r.untestable ?? ''}`;
  if (r.outcome === 'uncovered') return 'no check of the suite covers it yet';
  if (r.outcome === 'not-run')
    return s.coverage[r.service]?.scope === 'none' || s.coverage[r.service]?.scope === 'not configured'
      ? `the run did not test the ${r.service} service`
      : 'the run did not select the checks that cover it';
  return '';
}

export const requirementsCsv = (s: Summary): string =>
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
      reason(r, s),
    ]),
  ]);
