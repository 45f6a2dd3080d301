/**
 * Request validation variants: how strictly a deployment reads a request is not pinned by the seeds (they give types
 * and one required member, not what a deployment does with anything else).
 *
 * - lenient: no request-schema rejection at all, except a missing required identity (organization-identity-api.md,
 *   Resources, "Organization identity": "The identity object is required (`content.identity`) in postIdentity,
 *   demographicsSearch and demographicsQuery requests") and `maxSearchResults` not above 0 (Limits: "must be greater
 *   than 0", which the handler keeps rejecting). Wrongly typed and unknown members are accepted and stored as sent.
 *   Numeric strings in maxSearchResults / matchScoreThreshold are read as numbers, other values of the wrong type are
 *   ignored.
 * - strict: rejects unknown members in the envelope and at any depth of the content, and values out of the range the
 *   request can mean (matchScoreThreshold outside 0..1, pageNumber below 0, pageSize below 1). Known members: the
 *   seeds' tables (specs/), the members the suite must send where the seeds do not show them (identity.sources or
 *   content.source on postIdentity, the profile-named restore / deactivate / reactivate member), and the envelope's
 *   auditId, auditLogMap (string values), trackingId, content, and customerId on the person service.
 */
import { z } from 'zod';
import type { ServiceName } from '../../specs/common/model.js';
import { operation } from '../../specs/services.js';
import { SourceRef } from '../../specs/common/wire.js';
import { DEFAULT_MEMBERS, type Handler, type HandlerContext } from '../handlers/types.js';
import type { ReferenceHook, ValidationInfo } from '../hooks.js';

/** Operations whose request requires content.identity (organization seed, Resources). */
const IDENTITY_OPS = ['postIdentity', 'demographicsSearch', 'demographicsQuery'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Lenient: only a missing (or non-object) identity is a request-schema rejection. */
export function lenientHooks(): ReferenceHook[] {
  const validate = (info: ValidationInfo): string[] => {
    if (!IDENTITY_OPS.includes(info.operation)) return [];
    const identity = isObject(info.content) ? info.content.identity : undefined;
    return isObject(identity) ? [] : ['content.identity: required (an object)'];
  };
  // Numbers sent as numeric strings are read as numbers; anything else of the wrong type is ignored.
  const asNumber = (v: unknown) =>
    typeof v === 'number'
      ? v
      : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
        ? Number(v)
        : undefined;
  const coerceSearch = (next: Handler, ctx: HandlerContext) => {
    const c = { ...ctx.content };
    for (const k of ['maxSearchResults', 'matchScoreThreshold']) {
      if (c[k] === undefined || c[k] === null) continue;
      const n = asNumber(c[k]);
      if (n === undefined) delete c[k];
      else c[k] = n;
    }
    return next({ ...ctx, content: c });
  };
  const coercePaging = (next: Handler, ctx: HandlerContext) => {
    const c = { ...ctx.content };
    for (const k of ['pageNumber', 'pageSize']) {
      const n = asNumber(c[k]);
      if (n !== undefined) c[k] = Math.trunc(n);
    }
    return next({ ...ctx, content: c });
  };
  return [
    { validate },
    { operations: ['demographicsSearch'], handler: coerceSearch },
    { operations: ['searchNotifications'], handler: coercePaging },
  ];
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;
const clone = (s: z.ZodType, def: object) => (s as unknown as { clone(d: object): z.ZodType }).clone(def);

/** The schema with every object at any depth made strict (unknown members rejected). */
export function strictify(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return clone(schema, {
        ...def,
        shape: Object.fromEntries(Object.entries(def.shape!).map(([k, v]) => [k, strictify(v)])),
        catchall: z.never(),
      });
    case 'optional':
    case 'nullable':
      return clone(schema, { ...def, innerType: strictify(def.innerType!) });
    case 'array':
      return clone(schema, { ...def, element: strictify(def.element!) });
    case 'union':
      return clone(schema, { ...def, options: def.options!.map(strictify) });
    default:
      return schema;
  }
}

const sources = z.array(SourceRef).nullish();
const withMembers = (schema: z.ZodType, extra: Record<string, z.ZodType>) =>
  (schema as unknown as z.ZodObject).extend(extra);

/** The strict request content schema of one operation (cached). */
const strictSchemas = new Map<string, z.ZodType>();
function strictContent(service: ServiceName, op: string): z.ZodType {
  const key = `${service}/${op}`;
  let s = strictSchemas.get(key);
  if (s) return s;
  let base = operation(service, op).request;
  const shape = (base as unknown as z.ZodObject).shape as Record<string, z.ZodType> | undefined;
  // Where the seeds do not show members the suite must send, the reference's own names are known.
  if (shape?.identity)
    base = withMembers(base, {
      identity: withMembers(
        defOf(shape.identity).type === 'object' ? shape.identity : (defOf(shape.identity).innerType as z.ZodType),
        {
          sources,
        },
      ),
    });
  if (op === 'postIdentity') base = withMembers(base, { source: SourceRef.nullish() });
  if (op === 'restoreSource') base = withMembers(base, { [DEFAULT_MEMBERS.restoreSource]: SourceRef });
  if (op === 'deactivateSourceWs') base = withMembers(base, { [DEFAULT_MEMBERS.deactivateSource]: SourceRef });
  if (op === 'reactivateSourceWs') base = withMembers(base, { [DEFAULT_MEMBERS.reactivateSource]: SourceRef });
  s = strictify(base);
  strictSchemas.set(key, s);
  return s;
}

const envelopeOf = (service: ServiceName) =>
  z.strictObject({
    auditId: z.string().nullish(),
    trackingId: z.string().nullish(),
    auditLogMap: z.record(z.string(), z.string()).nullish(),
    content: z.unknown(),
    ...(service === 'person' ? { customerId: z.string().nullish() } : {}),
  });

const issuesOf = (prefix: string, r: { success: boolean; error?: z.ZodError }) =>
  r.success
    ? []
    : r
        .error!.issues.slice(0, 5)
        .map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join('.')}: ${i.message}`);

/** Strict: unknown members and out-of-range values are rejected too. */
export function strictHooks(): ReferenceHook[] {
  const validate = (info: ValidationInfo): string[] => {
    const envelope = issuesOf('', envelopeOf(info.service).safeParse(info.envelope));
    const content = issuesOf('content', strictContent(info.service, info.operation).safeParse(info.content ?? {}));
    const c = isObject(info.content) ? info.content : {};
    const ranges: string[] = [];
    if (typeof c.matchScoreThreshold === 'number' && !(c.matchScoreThreshold >= 0 && c.matchScoreThreshold <= 1))
      ranges.push('content.matchScoreThreshold: a match score lies between 0.0 and 1.0');
    if (info.operation === 'searchNotifications') {
      if (typeof c.pageNumber === 'number' && c.pageNumber < 0) ranges.push('content.pageNumber: must not be negative');
      if (typeof c.pageSize === 'number' && c.pageSize < 1) ranges.push('content.pageSize: must be at least 1');
    }
    return [...new Set([...info.issues, ...envelope, ...content, ...ranges])];
  };
  return [{ validate }];
}
