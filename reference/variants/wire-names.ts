/**
 * Variants in what the seeds do not name: request member names, where a posted identity carries its source, which
 * relationship verbs a deployment is configured for, and which auth scheme the person service uses. Each has a profile
 * setting (harness/profile.ts) a user sets to match.
 */
import { type Handler, type HandlerContext, Rejection } from '../handlers/types.js';
import type { ReferenceHook } from '../hooks.js';

/** member-names: the restore / deactivate / reactivate request name the source in `source`. */
export const SOURCE_MEMBER = 'source';
/** member-names: person relationships name their link IDs in these members. */
export const PERSON_SUBJECT = 'subjectLinkId';
export const PERSON_OBJECT = 'objectLinkId';
const VENDOR = { subject: 'subjectVeratoId', object: 'objectVeratoId' };

const rename = (rel: unknown, from: { subject: string; object: string }, to: { subject: string; object: string }) => {
  if (!rel || typeof rel !== 'object' || Array.isArray(rel)) return rel;
  const { [from.subject]: s, [from.object]: o, ...rest } = rel as Record<string, unknown>;
  return { ...rest, ...(s !== undefined ? { [to.subject]: s } : {}), ...(o !== undefined ? { [to.object]: o } : {}) };
};
const OURS = { subject: PERSON_SUBJECT, object: PERSON_OBJECT };

export const memberNames = (): ReferenceHook[] => [
  {
    operations: ['restoreSource', 'deactivateSourceWs', 'reactivateSourceWs'],
    handler: (next: Handler, ctx: HandlerContext) =>
      next({
        ...ctx,
        members: {
          ...ctx.members,
          restoreSource: SOURCE_MEMBER,
          deactivateSource: SOURCE_MEMBER,
          reactivateSource: SOURCE_MEMBER,
        },
      }),
  },
  {
    service: 'person',
    operations: ['addRelationshipService', 'searchRelationshipsService'],
    handler: (next: Handler, ctx: HandlerContext) => {
      const content = ctx.content.relationship
        ? { ...ctx.content, relationship: rename(ctx.content.relationship, OURS, VENDOR) }
        : ctx.content;
      const out = next({ ...ctx, content });
      return {
        ...out,
        ...(out.relationship ? { relationship: rename(out.relationship, VENDOR, OURS) } : {}),
        ...(Array.isArray(out.relationships)
          ? { relationships: out.relationships.map((r) => rename(r, VENDOR, OURS)) }
          : {}),
      };
    },
  },
];

/** source-in-content: postIdentity reads its source reference from content.source only. */
export const sourceInContent = (): ReferenceHook[] => [
  {
    operations: ['postIdentity'],
    handler: (next: Handler, ctx: HandlerContext) => {
      const s = ctx.content.source;
      if (!s || typeof s !== 'object' || typeof s.name !== 'string' || typeof s.id !== 'string')
        throw new Rejection(400, 'postIdentity needs content.source (a source reference with name and id)');
      const identity = ctx.content.identity && typeof ctx.content.identity === 'object' ? ctx.content.identity : {};
      const { sources: _ignored, ...rest } = identity as Record<string, unknown>;
      return next({ ...ctx, content: { ...ctx.content, identity: rest } });
    },
  },
];

/** relationship-verbs: addRelationshipService accepts only the configured relationship verb. */
export const relationshipVerbs = (verb: string): ReferenceHook[] => [
  {
    operations: ['addRelationshipService'],
    handler: (next: Handler, ctx: HandlerContext) => {
      const given = ctx.content.relationship?.relationshipVerb;
      if (given !== verb)
        throw new Rejection(
          400,
          `relationshipVerb ${JSON.stringify(given)} is not a configured relationship definition (configured: ${verb})`,
        );
      return next(ctx);
    },
  },
];

/** person-basic-auth: the person service accepts HTTP basic credentials only (a bearer token is refused). */
export const personBasicAuth = (): ReferenceHook[] => [
  {
    service: 'person',
    auth: (verdict, { header }) => (verdict === 'ok' && /^bearer\s/i.test(header ?? '') ? 'invalid' : verdict),
  },
];
