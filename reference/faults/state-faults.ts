/**
 * Faults in outcomes the executable state tables (specs/<service>/state-spec.ts) state for states a single hand-picked
 * check used not to reach: a link ID retired by a merge, a soft-deleted source of a shared identity, a source that
 * absorbed a merge and was then linked elsewhere. Each breaks one required outcome and is caught by the whole-state
 * oracle (scenarios/shared/walk/ oracle.ts), through a scripted check or a tour every run takes.
 *
 * Sources: organization-identity-api.md, Endpoints (rule 3), "States and transitions"; person-provider-identity-api.md,
 * "States and transitions", Resources (person reply content members).
 */
import { identityReply } from '../handlers/identity.js';
import { recordNamed as rec } from '../handlers/types.js';
import { perStore } from '../store.js';
import { type FaultDefinition, forServices } from './types.js';

/** Per store: the link ID of each identity a merge retired, to the record it was merged into. */
const retiredLinksOf = perStore(() => new Map<string, string>());

/** Appends the attribute values of `from` to `to`'s (what a stale consolidated record keeps showing). */
function keepData(to: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(from))
    if (Array.isArray(v) && k !== 'sources') to[k] = [...(Array.isArray(to[k]) ? (to[k] as unknown[]) : []), ...v];
}

/**
 * identityIdQuery forwards a link ID retired by a merge to the survivor, and echoes the survivor's link ID in
 * requestedLinkId.
 */
const echoRetired = forServices({
  operations: ['mergeIdentities', 'identityIdQuery'],
  description:
    "identityIdQuery of a link ID retired by a merge answers with the survivor's identity and echoes the " +
    "survivor's link ID in requestedLinkId",
  handler: (next, ctx, op) => {
    if (op === 'mergeIdentities') {
      const retired = rec(ctx, 'toRetireSource');
      const before = retired?.linkId;
      const result = next(ctx);
      const survivor = rec(ctx, 'toSurviveSource');
      if (before && survivor && ctx.store.visibleMembers(before).length === 0)
        retiredLinksOf(ctx.store).set(before, survivor.key);
      return result;
    }
    const asked = ctx.content.linkId as string;
    const survivor = [...ctx.store.records.values()].find((r) => r.key === retiredLinksOf(ctx.store).get(asked));
    if (!survivor || ctx.store.visibleMembers(asked).length || !ctx.store.visibleMembers(survivor.linkId).length)
      return next(ctx);
    return { ...identityReply(ctx, survivor.linkId), requestedLinkId: survivor.linkId };
  },
});

export const STATE_FAULTS: FaultDefinition[] = [
  echoRetired('organization', 'ORG-IDQUERY-ECHO', 'idquery-echo-retired'),
  echoRetired('person', 'PERSON-IDQUERY-ECHO', 'person-idquery-echo-retired'),
  {
    name: 'provider-softdelete-keeps-data',
    service: 'provider',
    requirement: 'PROV-SOFTDELETE-EFFECT',
    operations: ['softDeleteSource'],
    description:
      'after one of two linked sources is soft-deleted, the identity that keeps the other still shows the ' +
      "soft-deleted source's attributes (its consolidated record is not rebuilt)",
    handler: (next, ctx) => {
      const r = rec(ctx, 'sourceToSoftDelete');
      const others = r ? ctx.store.activeMembers(r.linkId).filter((x) => x !== r) : [];
      const result = next(ctx);
      if (r && others[0] && r.state === 'soft-deleted') keepData(others[0].data, r.data);
      return result;
    },
  },
  ...(['organization', 'person', 'provider'] as const).map(
    (service): FaultDefinition => ({
      name: `${service === 'organization' ? '' : `${service}-`}delete-linked-survivor-keeps-data`,
      service,
      requirement: {
        organization: 'ORG-HARDDELETE-EFFECT',
        person: 'PERSON-DELETE-PHYSICAL',
        provider: 'PROV-HARDDELETE-EFFECT',
      }[service],
      operations: ['deleteSourceIdentity'],
      description:
        'hard-deleting a source that absorbed a merge and was then linked into another identity keeps the ' +
        "sources merged into it in that identity, and with them the deleted source's attributes",
      handler: (next, ctx) => {
        const r = rec(ctx, 'source');
        const merged = r
          ? [...ctx.store.records.values()].filter((x) => x.state === 'retired' && x.retiredInto === r.key)
          : [];
        const linked = r ? ctx.store.activeMembers(r.linkId).filter((x) => x !== r) : [];
        const result = next(ctx);
        if (r && merged.length && linked[0]) {
          for (const x of merged) Object.assign(x, { linkId: r.linkId, retiredInto: undefined });
          keepData(linked[0].data, r.data);
        }
        return result;
      },
    }),
  ),
];
