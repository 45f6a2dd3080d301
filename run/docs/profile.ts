/**
 * docs/deployment-profile.md, written from the profile's schema (harness/profile.ts): one row per member, with its
 * description, the values it takes and its default, so the document lists every member the schema accepts and cannot
 * drift from it (`npm run docs`; test/profile-doc.test.ts compares the committed file).
 */
import { z } from 'zod';
import { ProfileSchema, unwrapMember as unwrap } from '../../harness/profile.js';

/** The values a leaf takes, in words. */
function valuesOf(schema: z.ZodType): string {
  const { inner, nullable } = unwrap(schema);
  const json = z.toJSONSchema(inner, { io: 'input', unrepresentable: 'any' }) as Record<string, any>;
  let v: string;
  if (inner instanceof z.ZodEnum) v = (inner.options as string[]).map((o) => `\`${o}\``).join(', ');
  else if (json.type === 'integer' || json.type === 'number')
    v = `${json.type === 'integer' ? 'integer' : 'number'} ${json.minimum ?? '...'} to ${json.maximum ?? '...'}`;
  else if (json.type === 'array') v = `list of ${json.items?.type ?? 'values'}s`;
  else v = String(json.type ?? 'value');
  return nullable ? `${v}, or \`null\`` : v;
}

const code = (value: unknown) => `\`${JSON.stringify(value)}\``;

/** Every member of the profile below `schema` as table rows: path, description, values, default. */
function rows(schema: z.ZodType, defaults: unknown, path: string[]): string[][] {
  const { inner } = unwrap(schema);
  if (inner instanceof z.ZodObject)
    return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([k, member]) =>
      rows(member, (defaults as Record<string, unknown>)[k], [...path, k]),
    );
  return [[`\`${path.join('.')}\``, schema.description ?? '', valuesOf(schema), code(defaults)]];
}

/** The groups of the profile (objects) with their descriptions, for the text above the table. */
function groups(): string[] {
  return Object.entries(ProfileSchema.shape as Record<string, z.ZodType>)
    .filter(([, s]) => unwrap(s).inner instanceof z.ZodObject)
    .map(([k, s]) => `\`${k}.*\`: ${s.description ?? ''}`);
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The document. */
export function profileDoc(): string {
  const table = rows(ProfileSchema, ProfileSchema.parse({}), []);
  return [
    '# Deployment profile',
    '',
    '<!-- Written by npm run docs from harness/profile.ts (run/docs/profile.ts); edit the schema, not this file. -->',
    '',
    'Where the seeds say "not shown", a check that needs the detail reads it from the deployment profile instead of',
    'assuming. Defaults serve the embedded reference; override any of them with a JSON file named by',
    '`CONFORMANCE_PROFILE` (README, "Settings"; unknown members are rejected at every level with their path and the',
    'member meant, so typos surface: `relationship.verbb: not a profile member (did you mean relationship.verb?)`). The',
    "seed documents are in `specs/seeds/`; where the seeds and the vendor's published contract disagree on a request,",
    "the members that send the vendor's form are listed in [vendor-contract.md](vendor-contract.md).",
    '',
    ...groups().map((g) => `- ${g}`),
    '',
    '| profile setting | meaning | values | default |',
    '| --- | --- | --- | --- |',
    ...table.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}
