/**
 * The executable state tables written out for people (docs/state-tables.md, kept equal to this by
 * test/state-tables-doc.test.ts): per service and operation, each outcome with its level (required, forbidden, open),
 * the requirement it bears on and the seed sentence it comes from.
 */
import { SERVICES, serviceNames } from '../../specs/services.js';
import { citeText } from '../../specs/common/seed.js';
import type { Effect, RowSpec, StateSpec, Who } from '../../specs/state/state-spec.js';

const roleText = (role: string) => (role === 'source' ? 'the source' : `the ${role} source`);
const whoText = (w: Who) =>
  'role' in w
    ? roleText(w.role)
    : 'membersOf' in w
      ? `the other sources of ${roleText(w.membersOf)}'s identity`
      : `the sources merged into ${roleText(w.retiredInto)}`;

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function effectRow(row: RowSpec, e: Effect): string {
  const level = e.level === 'open' ? 'open' : 'required';
  const states = e.when ? ` (when ${e.when.join(', ')})` : '';
  return (
    `| ${row.operation} | ${cell(whoText(e.who) + states)}: ${cell(e.what)} | ${level} | ` +
    `${e.level === 'open' ? '-' : (e.requirement ?? row.effectRequirement)} | ${cell(citeText(e.seed))} |`
  );
}

function serviceDoc(spec: StateSpec): string {
  const lines = [
    `## ${spec.service}`,
    '',
    `Source: ${spec.source}. States: ${spec.states.join(', ')}.`,
    '',
    '| operation | outcome | level | requirement | seed sentence |',
    '|---|---|---|---|---|',
  ];
  for (const row of spec.rows) {
    lines.push(
      `| ${row.operation} | sent from the states its row names (${cell(row.step)}): accepted | required | ` +
        `${row.effectRequirement} | ${cell(citeText(row.seed))} |`,
    );
    for (const e of row.effects) lines.push(effectRow(row, e));
    for (const r of row.reply)
      lines.push(
        `| ${row.operation} | reply: ${cell(r.what)} | required | ${r.requirement} | ${cell(citeText(r.seed))} |`,
      );
    if (row.feed)
      lines.push(
        `| ${row.operation} | the change appears in the notification feed of its window | required | ` +
          `${row.feed.requirement} | ${cell(citeText(row.feed.seed))} |`,
      );
  }
  const kinds = spec.rows.filter((r) => r.roles.length === 2 && spec.kinds);
  for (const row of kinds)
    lines.push(
      `| ${row.operation} | sent for sources of two different kinds (${spec.kinds!.join(', ')}): accepted | ` +
        `forbidden | see the row | ${cell(citeText(row.seed))} |`,
    );
  const q = spec.queries;
  if (q.idQueryEcho)
    lines.push(
      `| identityIdQuery | every answer, for any link ID asked, echoes it in requestedLinkId | required | ` +
        `${q.idQueryEcho.requirement} | ${cell(citeText(q.idQueryEcho.forbids!))} |`,
    );
  if (q.households)
    lines.push(
      `| householdQuery | the three lookup forms (link ID, source, household ID) agree | required | ` +
        `${q.households.byLinkId}, ${q.households.bySource}, ${q.households.byId} | ` +
        `${cell(citeText(q.households.seed))} |`,
    );
  if (spec.feed.partition)
    lines.push(
      `| searchNotifications | the pages of a closed window hold every notification once | required | ` +
        `${spec.feed.partition.requirement} | ${cell(citeText(spec.feed.partition.seed))} |`,
    );
  for (const o of spec.open) lines.push(`| ${o.operation} | ${cell(o.what)} | open | - | ${cell(citeText(o.seed))} |`);
  lines.push(
    '',
    'Sent from a state its row does not name, an operation is open (accepted or rejected; what it does then is ' +
      'followed, not judged), ' +
      'and on a hard-deleted source inert (accepted or rejected, it changes nothing).',
  );
  return lines.join('\n');
}

/** docs/state-tables.md. */
export function stateTablesDoc(): string {
  return [
    '# The state tables as the suite judges them',
    '',
    'Generated from `specs/<service>/state-spec.ts` (`npm run docs`); `npm test` fails when it is out of date.',
    'Each outcome is **required** (a deployment that does otherwise fails at the requirement), **forbidden**, ' +
      'or **open**',
    '(the seeds say nothing or "not shown": any observation is accepted, and the records it concerns are not ' +
      'judged until a',
    'later step states their state again). Single checks and the model-based walks both ask this specification.',
    '',
    ...serviceNames().flatMap((s) => [serviceDoc(SERVICES[s].stateSpec), '']),
  ].join('\n');
}
