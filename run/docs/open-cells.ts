/**
 * Where the seeds leave a choice open, written out for people (docs/open-cells.md, kept equal to this by
 * test/state-tables-doc.test.ts): every outcome the state tables leave open and every "not shown" of the seeds, each
 * with the sentence that leaves it open and what other sentences still forbid there. The space of legal answers of a
 * cell is everything not forbidden: the suite accepts all of it, also answers no reference of ours gives, and the
 * embedded reference draws from it (reference/variants/drawn.ts).
 */
import { SERVICES, serviceNames } from '../../specs/services.js';
import { NOT_SHOWN } from '../../specs/common/not-shown.js';
import { citeText } from '../../specs/common/seed.js';
import { type Forbidden, openOutcomes } from '../../specs/state/state-spec.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const forbiddenText = (f: Forbidden[] | undefined) =>
  f?.length ? f.map((x) => `${cell(x.what)} (${cell(citeText(x.seed))})`).join('; ') : 'nothing';

export function openCellsDoc(): string {
  const lines = [
    '# Open cells: what the seeds leave open, and what they still forbid there',
    '',
    'Generated from `specs/<service>/state-spec.ts` and `specs/common/not-shown.ts` (`npm run docs`); `npm ' +
      'test` fails when it is out of date.',
    'In each cell every answer that breaks none of the sentences in the last column is legal: the checks accept ' +
      'it (no clause',
    'rejects it) and the embedded reference draws from the same space (`REFERENCE_VARIANTS=drawn=<seed>`).',
    '',
  ];
  for (const service of serviceNames()) {
    const spec = SERVICES[service].stateSpec;
    lines.push(
      `## ${service}: outcomes the state table leaves open`,
      '',
      '| operation | open | left open by | still forbidden |',
      '|---|---|---|---|',
    );
    for (const o of openOutcomes(spec))
      lines.push(`| ${o.operation} | ${cell(o.what)} | ${cell(citeText(o.seed))} | ${forbiddenText(o.forbidden)} |`);
    lines.push('');
  }
  lines.push(
    '## Every "not shown" of the seeds',
    '',
    '| sentence | treatment | what the suite does | still forbidden |',
    '|---|---|---|---|',
  );
  for (const n of NOT_SHOWN)
    lines.push(`| ${cell(citeText(n.seed))} | ${n.treatment} | ${cell(n.how)} | ${forbiddenText(n.forbidden)} |`);
  return lines.join('\n');
}
