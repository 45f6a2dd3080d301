/**
 * The sites of generated bad input (scenarios/shared/bad-input.ts sends it): per operation of a service, the places in
 * a valid request where invalid content is generated, derived from the operations table's zod request schemas.
 *
 * What is generated, per member the schema describes (`Site`):
 * - wrong JSON types that no lenient parser bridges (an object or array where a scalar is expected, a non-numeric
 *   string where a number is, a scalar where an object or array is);
 * - a missing required member (required in the schema);
 * - malformed DATE (yyyy-MM-dd), TIME (HH:mm), DATE-TIME and e-mail values;
 * - out-of-range numbers where the seeds bound them (maxSearchResults <= 0), and per-service extras (person:
 *   createDataSource with more than 10 names).
 * Oversized strings are not generated: the seeds give no size limit ("Limits: not shown"). Members the schema does not
 * describe are left alone (of the profile-named restore / deactivate / reactivate source member only its absence is
 * generated), and a request the client guard would refuse (a source, link ID or name the run does not own) is never
 * sent.
 *
 *
 * Source: organization-identity-api.md, Resources ("Field data types"), Endpoints rule 1, Errors;
 * person-provider-identity-api.md, Resources, Limits, Errors.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import type { Check } from '../../harness/check.js';
import { NONPOSITIVE_MAX_ACCEPTED } from '../../specs/clauses/search.js';
import type { Clause } from '../../specs/common/clause.js';
import type { ServiceName } from '../../specs/common/model.js';
import type { OperationName } from '../../specs/common/operation-names.js';
import { type SourceRef, TimeString } from '../../specs/common/wire.js';
import { SERVICES, requirementFor } from '../../specs/services.js';
import { type RequestContext, validRequests } from './requests.js';

/** The requirement a role names in a service. @throws Error when the catalogue has none (a suite bug). */
export const roleId = (service: ServiceName, role: string) => {
  const id = requirementFor(service, role);
  if (!id) throw new Error(`the ${service} catalogue has no requirement for role ${role}`);
  return id;
};
type Path = Array<string | number>;

/** One place in one operation's request where invalid content is generated. */
export interface Site {
  op: OperationName;
  path: Path;
  kind: string;
  /** Invalid values for the member; `undefined` as the only value means "remove the member". */
  values: fc.Arbitrary<unknown>;
  /**
   * Requirements besides the generated-bad-input one a success at this site bears on, and the clause that judges them.
   */
  cites?: string[];
  clause?: Clause;
  /** Replaces the whole content (for cases that are not one member's value, e.g. too many names). */
  content?: (value: unknown) => Record<string, unknown>;
}

/** What the base contents are built from: the lane's two records and a source nobody posted. */
export type BadInputContext = RequestContext;

export interface BadInputConfig {
  /** The service (its catalogue gives the requirements by role: badInput.*, search.maxPositive). */
  service: ServiceName;
  /** A new identity on `source`. */
  generate: (t: Check, source: SourceRef) => Record<string, unknown>;
  /** Sites beyond the schema-derived ones (service rules such as the createDataSource limit). */
  extraSites?: (ctx: BadInputContext) => Site[];
}

/** A valid request per operation, naming only the check's own records (scenarios/shared/requests.ts). */
export const baseContents = (ctx: BadInputContext) => validRequests(ctx);

/**
 * The member that names the source of restore / deactivate / reactivate: the table's schema does not describe it (its
 * name is a profile setting), so only its absence is generated.
 */
function profileMember(t: Check, op: string): string | undefined {
  const m = t.profile.members;
  return (
    {
      restoreSource: m.restoreSource,
      deactivateSourceWs: m.deactivateSource,
      reactivateSourceWs: m.reactivateSource,
    } as Record<string, string>
  )[op];
}

const def = (s: z.ZodType) =>
  (s as any).def as { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType>; element?: z.ZodType };
function unwrap(s: z.ZodType): z.ZodType {
  let x = s;
  for (let i = 0; i < 10; i++) {
    const d = def(x);
    if (!['optional', 'nullable', 'default', 'readonly', 'nonoptional'].includes(d.type) || !d.innerType) return x;
    x = d.innerType;
  }
  return x;
}

const MALFORMED: Record<string, string[]> = {
  date: ['2021-02-30', '2020/01/31', '31-01-2020', '20200131', '2021-13-01', '2021-1-5', 'yesterday', '2021-02-29'],
  time: ['25:61', '9am', '9:5', '24:00', '12:60', 'noon', '12:00:00 PM'],
  datetime: [
    '2024-01-01 10:00:00',
    '2024-13-01T00:00:00Z',
    '2024-01-01T25:00:00Z',
    'last tuesday',
    '01/02/2024 10:00',
    '2024-02-30T00:00:00Z',
  ],
  email: ['no-at-sign.example', 'a@', '@example.org', 'two@@example.org', 'spaces in@example.org'],
};
const NON_NUMERIC = ['abc', 'ten', 'NaN?', '1,5x', ''];
const object = fc.constant({ unexpected: 'object' });
/** Wrong JSON types per expected type, chosen so that no lenient (coercing) parser accepts them. */
const WRONG: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.oneof(object, fc.array(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 3 })),
  number: fc.oneof(fc.constantFrom(...NON_NUMERIC), object, fc.constant([1, 2])),
  boolean: fc.oneof(fc.constantFrom('maybe', 'yes please', '2'), object, fc.constant([true, false])),
  array: fc.oneof(fc.integer(), fc.string({ minLength: 1, maxLength: 8 }), object),
  object: fc.oneof(fc.integer(), fc.string({ minLength: 1, maxLength: 8 }), fc.constant([1, 'x'])),
};

/**
 * Every site of one schema node (and below it) in `value`; descends into present objects and the first array element.
 */
function walk(op: OperationName, schema: z.ZodType, value: unknown, path: Path, out: Site[]): void {
  const s = unwrap(schema);
  const d = def(s);
  const required = !schema.safeParse(undefined).success;
  if (path.length && required && value !== undefined)
    out.push({ op, path, kind: 'missing required member', values: fc.constant(undefined) });
  const wrong = WRONG[d.type];
  if (path.length && wrong) out.push({ op, path, kind: `wrong type (expected ${d.type})`, values: wrong });
  if (d.type === 'string') {
    const format = (s as any).format as string | undefined;
    const kind = s === TimeString ? 'time' : format && MALFORMED[format] ? format : undefined;
    if (kind)
      out.push({ op, path, kind: `malformed ${kind.toUpperCase()}`, values: fc.constantFrom(...MALFORMED[kind]!) });
  }
  // Absent members get only their own invalid value (nothing below them is built).
  if (d.type === 'object' && d.shape && value && typeof value === 'object' && !Array.isArray(value))
    for (const [k, member] of Object.entries(d.shape))
      walk(op, member, (value as Record<string, unknown>)[k], [...path, k], out);
  if (d.type === 'array' && d.element && Array.isArray(value) && value.length)
    walk(op, d.element, value[0], [...path, 0], out);
}

/** A copy of `content` with the member at `path` set to `value` (removed when undefined). */
export function setAt(content: Record<string, unknown>, path: Path, value: unknown): Record<string, unknown> {
  // Only the objects on the path are copied; the rest is shared with `content`, which no caller changes (a whole copy
  // of every base for every sampled value held the worker's thread for - 200 ms at a time while replies of other checks
  // waited).
  const copy = (node: unknown): any => (Array.isArray(node) ? [...node] : { ...(node as Record<string, unknown>) });
  const out = copy(content);
  let node: any = out;
  for (const key of path.slice(0, -1)) node = node[key] = copy(node[key]);
  const last = path.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return out;
}

/** Sites of every operation of the service the base contents cover, plus the range rules and the service's extras. */
export function sitesOf(ctx: BadInputContext, config: BadInputConfig): Site[] {
  const { t } = ctx;
  const bases = baseContents(ctx);
  const out: Site[] = [];
  for (const op of SERVICES[t.service].operations) {
    const base = bases[op.name];
    if (!base) continue;
    const member = profileMember(t, op.name);
    if (member)
      out.push({ op: op.name, path: [member], kind: 'missing required member', values: fc.constant(undefined) });
    else walk(op.name, op.request, base, [], out);
  }
  if (bases.demographicsSearch)
    out.push({
      op: 'demographicsSearch',
      path: ['maxSearchResults'],
      kind: 'maxSearchResults not greater than 0',
      values: fc.integer({ min: -1000, max: 0 }),
      cites: [roleId(config.service, 'search.maxPositive')],
      clause: NONPOSITIVE_MAX_ACCEPTED,
    });
  out.push(...(config.extraSites?.(ctx) ?? []));
  return out;
}
