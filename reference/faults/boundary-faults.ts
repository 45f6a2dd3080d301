/**
 * Faults at the edges of the value types (the boundary checks, scenarios/shared/rules/boundaries.ts,
 * catch them): a deployment that accepts a value and keeps another one. Text cut at a storage
 * width, characters outside the BMP or beyond ASCII mangled, a NUMBER kept as a double, a leap
 * day rolled over, an echoed trackingId cut, a long auditLogMap value that loses the reply's
 * auditId with it, a native ID cut, a relationship's time of day dropped, a page number past the
 * last page answered with the last page.
 * Sources: organization-identity-api.md, Endpoints (rule 2), Errors, What the service does, Events;
 * person-provider-identity-api.md, Endpoints.
 */
import { valueLeaves, type LeafPath } from '../../specs/common/leaf-types.js';
import { OrganizationIdentity } from '../../specs/organization/identity.js';
import type { HandlerContext, Handler } from '../handlers/types.js';
import type { RuleFaultSpec } from './rule-faults.js';
import { mapLeaves } from './transforms.js';

/** `text` cut to `width` code points. */
const cut = (text: string, width: number) => [...text].slice(0, width).join('');

/** Runs `next` with every text value of the posted identity (its sources aside) passed through `fn`. */
const postedText =
  (fn: (text: string) => string) =>
  (next: Handler, ctx: HandlerContext): Record<string, unknown> => {
    const { sources, ...identity } = (ctx.content.identity ?? {}) as Record<string, unknown>;
    const changed = mapLeaves(identity, (_k, v) => (typeof v === 'string' ? fn(v) : v)) as Record<string, unknown>;
    return next({ ...ctx, content: { ...ctx.content, identity: { ...changed, ...(sources ? { sources } : {}) } } });
  };

/** Applies `fn` to every value at `path` inside `value`, in place. */
function changeAt(value: unknown, path: LeafPath, fn: (v: unknown) => unknown): void {
  if (!value || typeof value !== 'object' || !path.length) return;
  const [head, ...rest] = path;
  if (head === '[]') {
    if (Array.isArray(value)) for (const v of value) changeAt(v, rest, fn);
    return;
  }
  const holder = value as Record<string, unknown>;
  if (!rest.length) {
    if (holder[head!] !== undefined) holder[head!] = fn(holder[head!]);
  } else changeAt(holder[head!], rest, fn);
}

/** Runs `next` with the organization identity's leaves of a wire type passed through `fn`. */
const postedOfType =
  (type: 'NUMBER' | 'DATE', fn: (v: unknown) => unknown) =>
  (next: Handler, ctx: HandlerContext): Record<string, unknown> => {
    const identity = structuredClone(ctx.content.identity ?? {});
    for (const leaf of valueLeaves(OrganizationIdentity).filter((l) => l.type === type))
      changeAt(identity, leaf.path, fn);
    return next({ ...ctx, content: { ...ctx.content, identity } });
  };

const ECHOED = ['trackingId', 'auditId'] as const;

export const BOUNDARY_FAULT_SPECS: RuleFaultSpec[] = [
  {
    name: 'text-cut-at-255',
    requirement: 'boundaries.stored',
    operations: ['postIdentity'],
    description: 'text longer than 255 characters is stored cut to 255 (a column that truncates instead of refusing)',
    handler: postedText((v) => cut(v, 255)),
  },
  {
    name: 'astral-as-question-marks',
    requirement: 'boundaries.stored',
    operations: ['postIdentity'],
    description:
      'characters outside the Basic Multilingual Plane (emoji, rare CJK) are stored as "?" (a 3-byte UTF-8 column)',
    handler: postedText((v) => v.replace(/[\u{10000}-\u{10FFFF}]/gu, '?')),
  },
  {
    name: 'utf8-read-as-latin1',
    services: ['organization'],
    requirement: 'boundaries.stored',
    operations: ['postIdentity'],
    description: 'text is stored from its UTF-8 bytes read as Latin-1 ("é" kept as "Ã©")',
    handler: postedText((v) => Buffer.from(v, 'utf8').toString('latin1')),
  },
  {
    name: 'number-kept-as-double',
    services: ['organization'],
    requirement: 'boundaries.stored',
    operations: ['postIdentity'],
    description:
      'NUMBER values are kept as doubles: digits past the 17th are lost ' +
      '("123456789012345678901234567890" shown as "1.2345678901234568e+29")',
    handler: postedOfType('NUMBER', (v) =>
      typeof v === 'string' && Number.isFinite(Number(v)) ? String(Number(v)) : v,
    ),
  },
  {
    name: 'leap-day-rolled-over',
    services: ['organization'],
    requirement: 'boundaries.stored',
    operations: ['postIdentity'],
    description: 'a DATE on 29 February is stored as 1 March (days checked against a common year)',
    handler: postedOfType('DATE', (v) => (typeof v === 'string' ? v.replace(/-02-29$/, '-03-01') : v)),
  },
  {
    name: 'tracking-cut-at-64',
    requirement: 'envelope.echo',
    description: 'trackingId and auditId longer than 64 characters are echoed cut to 64',
    reply: (i) => {
      for (const m of ECHOED)
        if (typeof i.request[m] === 'string' && [...i.request[m]].length > 64) i.body[m] = cut(i.request[m], 64);
    },
  },
  {
    name: 'long-audit-value-drops-audit-id',
    requirement: 'envelope.echo',
    description:
      'an auditLogMap value longer than 255 characters fails the audit record it is written with: ' +
      'the reply carries no auditId',
    reply: (i) => {
      const values = Object.values((i.request.auditLogMap ?? {}) as Record<string, unknown>);
      if (values.some((v) => typeof v === 'string' && [...v].length > 255)) delete i.body.auditId;
    },
  },
  {
    name: 'native-id-cut-at-64',
    requirement: 'boundaries.nativeId',
    description: 'native IDs are kept cut to 64 characters (everywhere: posts, lookups and deletes find the cut ID)',
    handler: (next, ctx) =>
      next({
        ...ctx,
        content: mapLeaves(ctx.content, (k, v) => (k === 'id' && typeof v === 'string' ? cut(v, 64) : v)) as Record<
          string,
          any
        >,
      }),
  },
  {
    name: 'relationship-time-dropped',
    requirement: 'boundaries.relationship',
    operations: ['addRelationshipService'],
    description: "a relationship's startDate and endDate are kept to the day: the time of day is dropped",
    handler: (next, ctx) => {
      const rel = { ...(ctx.content.relationship ?? {}) };
      for (const m of ['startDate', 'endDate'])
        if (typeof rel[m] === 'string') rel[m] = `${rel[m].slice(0, 10)}T00:00:00Z`;
      return next({ ...ctx, content: { ...ctx.content, relationship: rel } });
    },
  },
  {
    name: 'notif-page-past-end-clamped',
    requirement: 'notifications.paging',
    operations: ['searchNotifications'],
    description: 'a pageNumber past the last page answers the last page again',
    handler: (next, ctx) => {
      const first = next(ctx) as { totalElements: number };
      const last = Math.max(0, Math.ceil(first.totalElements / ctx.content.pageSize) - 1);
      return ctx.content.pageNumber > last ? next({ ...ctx, content: { ...ctx.content, pageNumber: last } }) : first;
    },
  },
];
