/**
 * Reply validation: zod schemas from specs/ are exported to JSON Schema (draft 2020-12) and compiled by ajv once per
 * schema; a failure lists every JSON pointer with what was expected and what came.
 *
 * Source: the operations tables (specs/<service>/operations.ts) and the reply envelope (organization-identity-api.md,
 * Resources, "Response envelope").
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { z } from 'zod';
import { ReplyEnvelope } from '../specs/common/envelope.js';
import type { OperationSpec, Requirement } from '../specs/common/model.js';
import { type WireType, leafTypes } from '../specs/common/leaf-types.js';
import { CONTENT_SHAPE, WIRE_FORM } from '../specs/clauses/contract.js';
import type { Clause } from '../specs/common/clause.js';
import { DEFAULT_VALIDATOR_CACHE, ValidatorCache } from './validator-cache.js';

/** One schema violation: where, what the contract expects, what the deployment sent. */
export interface Violation {
  pointer: string;
  expected: string;
  got: string;
}

// Validators are compiled once per schema for all workers and runs (harness/validator-cache.ts), so ajv's code
// optimisation, which makes each validation cheaper, is paid for only once.
const AJV_OPTIONS = { allErrors: true, strict: false, code: { source: true } } as const;
/** What shapes the generated validator code besides the schema (part of each cached file's name). */
export const VALIDATOR_OPTIONS_KEY = `draft 2020-12 ${JSON.stringify(AJV_OPTIONS)} ajv-formats full`;

/** A fresh ajv as reply validation uses it: draft 2020-12, every error listed, ajv-formats' full formats. */
export function replyAjv() {
  const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)(AJV_OPTIONS);
  (addFormats as unknown as typeof addFormats.default)(ajv);
  return ajv;
}

const cache = new ValidatorCache(replyAjv(), DEFAULT_VALIDATOR_CACHE, VALIDATOR_OPTIONS_KEY);
const compiled = new WeakMap<z.ZodType, ValidateFunction>();

/** JSON Schema of a zod schema (the same export the reports and docs use). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
}

function validatorFor(schema: z.ZodType): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    v = cache.validator(jsonSchemaOf(schema));
    compiled.set(schema, v);
  }
  return v;
}

const show = (value: unknown): string => {
  const text = JSON.stringify(value);
  if (text === undefined) return 'nothing';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

function valueAt(root: unknown, pointer: string): unknown {
  if (!pointer) return root;
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node == null ? undefined : (node as Record<string, unknown>)[key]), root);
}

function describe(e: ErrorObject): string {
  switch (e.keyword) {
    case 'type':
      return `type ${(e.params as { type: string }).type}`;
    case 'required':
      return `member "${(e.params as { missingProperty: string }).missingProperty}"`;
    case 'format':
      return `format ${(e.params as { format: string }).format}`;
    case 'pattern':
      return `pattern ${(e.params as { pattern: string }).pattern}`;
    case 'enum':
      return `one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    default:
      return e.message ?? e.keyword;
  }
}

/** Validates `value` against `schema`; returns [] when it conforms. */
export function violations(schema: z.ZodType, value: unknown, base = ''): Violation[] {
  const validate = validatorFor(schema);
  if (validate(value)) return [];
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'if');
  const seen = new Set<string>();
  const out: Violation[] = [];
  for (const e of errors) {
    // A nullable member that fails reports both the real schema and the "null" branch; keep the real one.
    if (e.keyword === 'type' && (e.params as { type: string }).type === 'null') continue;
    const pointer =
      e.keyword === 'required'
        ? `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`
        : e.instancePath;
    const key = `${pointer}|${describe(e)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      pointer: `${base}${pointer}` || '/',
      expected: describe(e),
      got: show(e.keyword === 'required' ? undefined : valueAt(value, e.instancePath)),
    });
  }
  return out;
}

/** Violations of the reply envelope (`content` excluded). */
export const envelopeViolations = (body: unknown) => violations(ReplyEnvelope, body);

/** Violations of an operation's reply `content`, with pointers rooted at `/content`. */
export const contentViolations = (op: OperationSpec, content: unknown) => violations(op.reply, content, '/content');

/** The role of each wire type's data-type requirement (specs/common/model.ts Requirement.roles). */
const typeRole: Record<WireType, string> = {
  TEXT: 'type.text',
  NUMBER: 'type.number',
  DATE: 'type.date',
  TIME: 'type.time',
  BOOLEAN: 'type.boolean',
  'DATE-TIME': 'type.dateTime',
};
const leafIndex = new WeakMap<z.ZodType, Map<string, WireType>>();

/** `/content/a/0/b` -> `/content/a/[]/b`: the form requirement `governs` entries use. */
const generalise = (pointer: string) => pointer.replace(/\/\d+(?=\/|$)/g, '/[]');

/**
 * One violation of a reply's content as a clause judges it: the requirement it bears on and the clause
 * (harness/check.ts builds the findings).
 */
export interface ContentJudgement {
  clause: Clause;
  requirement: string;
  observed: string;
}

/**
 * What each reply-content violation breaks: the operation's shape requirement (CONTENT-SHAPE), the data-type
 * requirement of a leaf with the wrong wire form (WIRE-FORM; role `type.date`, ...), and any requirement that `governs`
 * the violated member (CONTENT-SHAPE); of the replying service only.
 */
export function contentJudgements(
  op: OperationSpec,
  list: Violation[],
  catalogue: Map<string, Requirement>,
): ContentJudgement[] {
  let leaves = leafIndex.get(op.reply);
  if (!leaves) {
    leaves = new Map(leafTypes(op.reply).map((l) => [`/content/${l.path.join('/')}`, l.type] as const));
    leafIndex.set(op.reply, leaves);
  }
  const out: ContentJudgement[] = [];
  for (const v of list) {
    const observed = `${op.name} ${v.pointer}: expected ${v.expected}, got ${v.got}`;
    out.push({ clause: CONTENT_SHAPE, requirement: op.shapeRequirement, observed });
    const general = generalise(v.pointer);
    const type = leaves.get(general);
    for (const r of catalogue.values()) {
      if (r.service !== op.service) continue; // a reply of one service never bears on another's requirements
      if (type && r.roles?.includes(typeRole[type])) out.push({ clause: WIRE_FORM, requirement: r.id, observed });
      const governed = (r.governs ?? [])
        .filter((g) => g.startsWith(`${op.name}:`))
        .map((g) => g.slice(op.name.length + 1));
      if (governed.includes(general)) out.push({ clause: CONTENT_SHAPE, requirement: r.id, observed });
    }
  }
  return out;
}

/**
 * The requirements a reply-content violation bears on, besides the operation's shape requirement: the data-type
 * requirement of a leaf with the wrong wire form (role `type.date`, ...), and any requirement that `governs` the
 * violated member; of the replying service only.
 */
export function requirementsOf(op: OperationSpec, list: Violation[], catalogue: Map<string, Requirement>): string[] {
  return [...new Set(contentJudgements(op, list, catalogue).map((j) => j.requirement))].filter(
    (id) => id !== op.shapeRequirement,
  );
}

/** One line per violation, for failure messages. */
export const formatViolations = (list: Violation[]) =>
  list.map((v) => `  ${v.pointer}: expected ${v.expected}, got ${v.got}`).join('\n');
