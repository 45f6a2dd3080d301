/**
 * The single checks' clauses (specs/clauses/), table-driven: for every clause at least one
 * observation its sentence forbids is rejected, and at least two legal ones are accepted, one of
 * them an answer the embedded reference never gives (marked `unseen`: a shape, status or value a
 * legitimate deployment may choose). A clause widened to reject a legal observation turns its
 * row red. Pure functions only: no server.
 * Source: organization-identity-api.md and person-provider-identity-api.md, through the clauses'
 * requirements (specs/<service>/requirements.ts, Requirement.forbids).
 */
import { describe, expect, it } from 'vitest';
import { seededFaker } from '../generators/seed.js';
import { Check } from '../harness/check.js';
import { contentJudgements, contentViolations, envelopeViolations } from '../harness/contract.js';
import { explainFailure } from '../harness/failure.js';
import { ConformanceFailure } from '../harness/verdict.js';
import * as auth from '../specs/clauses/auth.js';
import * as bad from '../specs/clauses/bad-input.js';
import * as boundaries from '../specs/clauses/boundaries.js';
import * as contract from '../specs/clauses/contract.js';
import * as envelope from '../specs/clauses/envelope.js';
import * as matching from '../specs/clauses/matching.js';
import * as notifications from '../specs/clauses/notifications.js';
import * as person from '../specs/clauses/person.js';
import * as post from '../specs/clauses/post.js';
import * as query from '../specs/clauses/query.js';
import * as relationships from '../specs/clauses/relationships.js';
import * as search from '../specs/clauses/search.js';
import { CHECK_AREAS, clauseRequirements, findingsOf, restsOn } from '../specs/clause-registry.js';
import type { Clause } from '../specs/common/clause.js';
import { isEmailAddress, wrongWireForm } from '../specs/clauses/types.js';
import type { ServiceName } from '../specs/common/model.js';
import { DateTimeString } from '../specs/common/wire.js';
import { SERVICES, operation, requirementIndex } from '../specs/services.js';

/** An observation and what the clause's function answers for it. */
interface Case {
  what: string;
  judge: () => readonly string[];
  /** An answer the embedded reference never gives (a legitimate deployment's choice). */
  unseen?: boolean;
}
interface Row {
  rejected: Case[];
  accepted: Case[];
}

const index = requirementIndex();
/** The contract's findings of one clause for an operation's reply content. */
const content = (service: ServiceName, op: string, c: Clause, value: unknown) => () =>
  contentJudgements(operation(service, op), contentViolations(operation(service, op), value), index)
    .filter((j) => j.clause === c)
    .map((j) => j.observed);
const envelopeOf = (body: unknown) => () => envelopeViolations(body).map((v) => `${v.pointer}: ${v.got}`);
const r = (linkId: string, matchScore?: unknown, sameIdentity?: unknown) => ({ linkId, matchScore, sameIdentity });
const page = (n: number, hasNext?: unknown, totalElements?: unknown) => ({
  notifications: Array.from({ length: n }, (_, i) => ({ i })),
  hasNext,
  totalElements,
});
const hits = (...xs: Array<[string, number]>) => xs.map(([linkId, score]) => ({ linkId, score }));
const decision = (what: string, score: number, matched: boolean) => ({ what, score, matched });
const email = (value: unknown) => () =>
  wrongWireForm([{ pointer: '/email', value }], isEmailAddress, 'an e-mail address');

const ROWS: Record<string, Row> = {
  // contract
  'REPLY-NOT-ENVELOPE': {
    rejected: [
      {
        what: 'an HTML error page',
        judge: () => contract.replyNotEnvelope('nativeIdQuery', 502, undefined, '<html>bad</html>'),
      },
    ],
    accepted: [
      { what: 'an envelope', judge: () => contract.replyNotEnvelope('nativeIdQuery', 200, { success: true }, '') },
      {
        what: 'an envelope on HTTP 418 with members of its own',
        judge: () => contract.replyNotEnvelope('nativeIdQuery', 418, { success: false, vendor: { code: 7 } }, ''),
        unseen: true,
      },
    ],
  },
  'ENVELOPE-MEMBER-TYPE': {
    rejected: [
      { what: 'success as a string', judge: envelopeOf({ success: 'true' }) },
      { what: 'errors as one string', judge: envelopeOf({ success: false, errors: 'a, b' }) },
    ],
    accepted: [
      { what: 'success alone', judge: envelopeOf({ success: true }) },
      {
        what: 'null members, empty lists and members of its own',
        judge: envelopeOf({
          success: false,
          message: null,
          errors: null,
          warnings: [],
          retryableError: null,
          vendorCode: 'E1',
        }),
        unseen: true,
      },
    ],
  },
  'CONTENT-SHAPE': {
    rejected: [
      {
        what: 'searchResults wrapped in an object',
        judge: content('organization', 'demographicsSearch', contract.CONTENT_SHAPE, { searchResults: {} }),
      },
      {
        what: 'events as one object',
        judge: content('organization', 'postIdentity', contract.CONTENT_SHAPE, { events: { kind: 'CREATE' } }),
      },
    ],
    accepted: [
      {
        what: 'no results',
        judge: content('organization', 'demographicsSearch', contract.CONTENT_SHAPE, { searchResults: [] }),
      },
      {
        what: 'a result with a null linkId, score 0, N and members of its own',
        judge: content('organization', 'demographicsSearch', contract.CONTENT_SHAPE, {
          searchResults: [{ matchScore: 0, sameIdentity: 'N', linkId: null, vendorRank: { a: 1 } }],
        }),
        unseen: true,
      },
      {
        what: 'relationship search answering one object',
        judge: content('organization', 'searchRelationshipsService', contract.CONTENT_SHAPE, {
          relationship: { id: 'r1' },
        }),
        unseen: true,
      },
    ],
  },
  'WIRE-FORM': {
    rejected: [
      {
        what: 'a DATE as MM/dd/yyyy',
        judge: content('organization', 'nativeIdQuery', contract.WIRE_FORM, {
          identity: { foundedDate: [{ foundedDate: '01/31/2020' }] },
        }),
      },
      { what: 'an e-mail written out', judge: email('name at example.com') },
    ],
    accepted: [
      {
        what: 'a DATE as yyyy-MM-dd',
        judge: content('organization', 'nativeIdQuery', contract.WIRE_FORM, {
          identity: { foundedDate: [{ foundedDate: '2020-01-31' }] },
        }),
      },
      {
        what: 'a NUMBER with a sign and a leading dot',
        judge: content('organization', 'nativeIdQuery', contract.WIRE_FORM, {
          identity: { addresses: [{ latitude: '-.5', longitude: '+17.25' }] },
        }),
        unseen: true,
      },
      { what: 'an e-mail with a dotless domain', judge: email('postmaster@localhost'), unseen: true },
      { what: 'an e-mail with a quoted local part', judge: email('"a b@c"@example.org'), unseen: true },
      {
        what: 'a DATE-TIME with +00:00 and microseconds',
        judge: () =>
          wrongWireForm(
            [{ pointer: '/d', value: '2026-01-01T10:00:00.123456+00:00' }],
            (v) => DateTimeString.safeParse(v).success,
            'UTC',
          ),
        unseen: true,
      },
    ],
  },
  'REQUEST-REFUSED': {
    rejected: [
      {
        what: 'success=false',
        judge: () => contract.requestRefused('mergeIdentities', { status: 409, success: false }),
      },
    ],
    accepted: [
      { what: 'success=true', judge: () => contract.requestRefused('mergeIdentities', { status: 200, success: true }) },
      {
        what: 'success=true on HTTP 201',
        judge: () => contract.requestRefused('mergeIdentities', { status: 201, success: true }),
        unseen: true,
      },
    ],
  },
  // envelope
  'PATH-NOT-ANSWERED': {
    rejected: [
      {
        what: '404 with success=false',
        judge: () => envelope.pathNotAnswered('identityIdQuery', { status: 404, success: false }),
      },
    ],
    accepted: [
      { what: '200', judge: () => envelope.pathNotAnswered('identityIdQuery', { status: 200, success: true }) },
      {
        what: 'a 404 that says success=true (the operation answered: not found is its business)',
        judge: () => envelope.pathNotAnswered('identityIdQuery', { status: 404, success: true }),
        unseen: true,
      },
      {
        what: 'a 422 rejection',
        judge: () => envelope.pathNotAnswered('identityIdQuery', { status: 422, success: false }),
        unseen: true,
      },
    ],
  },
  'ECHO-DIFFERS': {
    rejected: [
      {
        what: 'a server-made trackingId',
        judge: () => envelope.echoDiffers({ trackingId: 't1', auditId: 'a1' }, { trackingId: 'srv', auditId: 'a1' }),
      },
      {
        what: 'no auditId',
        judge: () => envelope.echoDiffers({ trackingId: 't1', auditId: 'a1' }, { trackingId: 't1' }),
      },
    ],
    accepted: [
      {
        what: 'both echoed',
        judge: () => envelope.echoDiffers({ trackingId: 't1', auditId: 'a1' }, { trackingId: 't1', auditId: 'a1' }),
      },
      {
        what: 'both echoed beside members of its own',
        judge: () =>
          envelope.echoDiffers({ trackingId: 't1', auditId: 'a1' }, { trackingId: 't1', auditId: 'a1', spanId: 'x' }),
        unseen: true,
      },
    ],
  },
  'VIEW-DEFAULT-DIFFERS': {
    rejected: [
      {
        what: 'an empty identity without views',
        judge: () =>
          envelope.viewDefaultDiffers({ linkId: 'L', identity: {} }, { linkId: 'L', identity: { names: [{ a: 1 }] } }),
      },
    ],
    accepted: [
      {
        what: 'the same reply',
        judge: () =>
          envelope.viewDefaultDiffers({ linkId: 'L', identity: { a: [1] } }, { linkId: 'L', identity: { a: [1] } }),
      },
      {
        what: 'the same identity with its arrays in another order and a null member left out',
        judge: () =>
          envelope.viewDefaultDiffers(
            { linkId: 'L', identity: { emails: [{ e: 'x' }, { e: 'y' }], fax: null } },
            { linkId: 'L', identity: { emails: [{ e: 'y' }, { e: 'x' }] } },
          ),
        unseen: true,
      },
    ],
  },
  'FAILURE-WITHOUT-REASON': {
    rejected: [
      {
        what: 'an empty failure',
        judge: () => envelope.failureWithoutReason({ success: false, message: '', errors: [] }),
      },
    ],
    accepted: [
      {
        what: 'a message',
        judge: () => envelope.failureWithoutReason({ success: false, message: 'maxSearchResults must be > 0' }),
      },
      {
        what: 'errors only, no message member',
        judge: () => envelope.failureWithoutReason({ success: false, errors: ['E42'] }),
        unseen: true,
      },
    ],
  },
  'CUSTOMERID-REFUSED': {
    rejected: [
      { what: 'refused', judge: () => envelope.customerIdRefused({ status: 400, success: false }, undefined, 'L1') },
      {
        what: 'answered another identity',
        judge: () => envelope.customerIdRefused({ status: 200, success: true }, 'L2', 'L1'),
      },
    ],
    accepted: [
      { what: 'answered', judge: () => envelope.customerIdRefused({ status: 200, success: true }, 'L1', 'L1') },
      {
        what: 'answered on HTTP 203',
        judge: () => envelope.customerIdRefused({ status: 203, success: true }, 'L1', 'L1'),
        unseen: true,
      },
    ],
  },
  'ENRICH-DEFAULT-DIFFERS': {
    rejected: [
      {
        what: 'enrichment without the option',
        judge: () =>
          envelope.enrichDefaultDiffers(
            { identity: {}, enrichedDetails: { x: 1 } },
            { identity: {}, enrichedDetails: null },
          ),
      },
    ],
    accepted: [
      {
        what: 'the same',
        judge: () => envelope.enrichDefaultDiffers({ identity: { a: [1] } }, { identity: { a: [1] } }),
      },
      {
        what: 'enrichedDetails null in one and absent in the other, arrays reordered',
        judge: () =>
          envelope.enrichDefaultDiffers(
            { identity: { a: [1, 2] }, enrichedDetails: null },
            { identity: { a: [2, 1] } },
          ),
        unseen: true,
      },
    ],
  },
  'ENRICH-NOT-ASKED': {
    rejected: [
      {
        what: 'enrichment content not asked for',
        judge: () => envelope.enrichNotAsked('postIdentity', { enrichedDetails: { enrichedBy: 'x', linkId: 'L1' } }),
      },
      {
        what: 'a value deep in a list',
        judge: () => envelope.enrichNotAsked('demographicsQuery', { enrichedDetails: { a: [{}, [0]] } }),
      },
    ],
    accepted: [
      { what: 'no member', judge: () => envelope.enrichNotAsked('postIdentity', { linkId: 'L1' }) },
      {
        what: 'an empty shell',
        judge: () => envelope.enrichNotAsked('postIdentity', { enrichedDetails: { a: null, b: '', c: [], d: {} } }),
        unseen: true,
      },
    ],
  },
  'ENRICH-TRUE-REFUSED': {
    rejected: [
      {
        what: 'true refused',
        judge: () => envelope.enrichTrueRefused({ status: 400, success: false }, undefined, 'L1'),
      },
    ],
    accepted: [
      { what: 'answered', judge: () => envelope.enrichTrueRefused({ status: 200, success: true }, 'L1', 'L1') },
      {
        what: 'answered on HTTP 206',
        judge: () => envelope.enrichTrueRefused({ status: 206, success: true }, 'L1', 'L1'),
        unseen: true,
      },
    ],
  },
  // postIdentity
  'LINKID-WITHOUT-MATCH': {
    rejected: [{ what: 'a link ID for a lone record', judge: () => post.postLinkId('L9', false).withoutMatch }],
    accepted: [
      { what: 'null for a lone record', judge: () => post.postLinkId(null, false).withoutMatch },
      {
        what: 'linkId left out for a lone record',
        judge: () => post.postLinkId(undefined, false).withoutMatch,
        unseen: true,
      },
      {
        what: 'a link ID other than the match read before (the identity was re-keyed)',
        judge: () => post.postLinkId('L-new', true).withoutMatch,
        unseen: true,
      },
    ],
  },
  'LINKID-NULL-ON-MATCH': {
    rejected: [{ what: 'null on a match', judge: () => post.postLinkId(null, true).nullOnMatch }],
    accepted: [
      { what: 'the matched link ID', judge: () => post.postLinkId('L1', true).nullOnMatch },
      {
        what: 'a new link ID of the joined identity',
        judge: () => post.postLinkId('urn:id:7', true).nullOnMatch,
        unseen: true,
      },
      { what: 'not known whether it matched', judge: () => post.postLinkId(null, undefined).nullOnMatch, unseen: true },
    ],
  },
  'EVENTS-NOT-ARRAY': {
    rejected: [{ what: 'one object', judge: () => post.eventsNotArray({ kind: 'CREATE' }) }],
    accepted: [
      { what: 'an array of objects', judge: () => post.eventsNotArray([{ kind: 'CREATE' }]) },
      { what: 'no events member', judge: () => post.eventsNotArray(undefined), unseen: true },
      { what: 'events as strings', judge: () => post.eventsNotArray(['LINKED', 'CREATED']), unseen: true },
    ],
  },
  'POSTED-NOT-FOUND': {
    rejected: [{ what: 'not found', judge: () => post.postedNotFound({ name: 's', id: 'n' }, false) }],
    accepted: [
      { what: 'found', judge: () => post.postedNotFound({ name: 's', id: 'n' }, true) },
      {
        what: 'found after a lag',
        judge: () => post.postedNotFound({ name: 's', id: 'n' }, true, 'HTTP 200 after 3 reads'),
        unseen: true,
      },
    ],
  },
  'UPDATE-NOT-APPLIED': {
    rejected: [
      {
        what: 'a second record',
        judge: () => post.updateNotApplied('L1', { linkId: 'L2', timesListed: 1, shows: true }, 'x'),
      },
      {
        what: 'the source listed twice',
        judge: () => post.updateNotApplied('L1', { linkId: 'L1', timesListed: 2, shows: true }, 'x'),
      },
    ],
    accepted: [
      {
        what: 'updated in place',
        judge: () => post.updateNotApplied('L1', { linkId: 'L1', timesListed: 1, shows: true }, 'x'),
      },
      {
        what: 'updated, with no identityGroupedBySource at all',
        judge: () => post.updateNotApplied('L1', { linkId: 'L1', timesListed: 0, shows: true }, 'x'),
        unseen: true,
      },
    ],
  },
  'EXACT-COPY-NOT-LINKED': {
    rejected: [{ what: 'a link ID of its own', judge: () => post.exactCopyNotLinked('L1', 'L2') }],
    accepted: [
      { what: 'linked', judge: () => post.exactCopyNotLinked('L1', 'L1') },
      { what: 'linked, link IDs as URNs', judge: () => post.exactCopyNotLinked('urn:x:1', 'urn:x:1'), unseen: true },
    ],
  },
  'TYPE-NOT-KEPT': {
    rejected: [{ what: 'a facility read back as a practitioner', judge: () => post.typeNotKept('2', '1') }],
    accepted: [
      { what: 'the same string', judge: () => post.typeNotKept('2', '2') },
      { what: 'the type as a JSON number', judge: () => post.typeNotKept('2', 2), unseen: true },
    ],
  },
  // search
  'BELOW-THRESHOLD': {
    rejected: [
      { what: 'a result at 0.4 at threshold 0.6', judge: () => search.belowThreshold([r('A', 0.9), r('B', 0.4)], 0.6) },
    ],
    accepted: [
      { what: 'results at or above', judge: () => search.belowThreshold([r('A', 0.9), r('B', 0.6)], 0.6) },
      { what: 'no results at all', judge: () => search.belowThreshold([], 0.6), unseen: true },
      {
        what: 'results without scores (person: fields not shown)',
        judge: () => search.belowThreshold([r('A'), r('B')], 0.6),
        unseen: true,
      },
    ],
  },
  'THRESHOLD-DROPS': {
    rejected: [
      {
        what: 'a result scoring exactly the threshold, dropped',
        judge: () =>
          search.thresholdDrops(
            new Set(['A', 'B']),
            [r('A', 0.9), r('B', 0.6)],
            [r('A', 0.9), r('B', 0.6)],
            [r('A', 0.9)],
            0.6,
            50,
          ),
      },
    ],
    accepted: [
      {
        what: 'every own result at or above kept',
        judge: () =>
          search.thresholdDrops(
            new Set(['A', 'B']),
            [r('A', 0.9), r('B', 0.6)],
            [r('A', 0.9), r('B', 0.6)],
            [r('A', 0.9), r('B', 0.6)],
            0.6,
            50,
          ),
      },
      {
        what: 'a result whose score drifted between the reads, missing',
        judge: () =>
          search.thresholdDrops(
            new Set(['A', 'B']),
            [r('A', 0.9), r('B', 0.6)],
            [r('A', 0.9), r('B', 0.59)],
            [r('A', 0.9)],
            0.6,
            50,
          ),
        unseen: true,
      },
      {
        what: 'a full list that cut it',
        judge: () =>
          search.thresholdDrops(new Set(['B']), [r('B', 0.6)], [r('B', 0.6)], [r('X', 0.9), r('Y', 0.8)], 0.6, 2),
        unseen: true,
      },
    ],
  },
  UNORDERED: {
    rejected: [{ what: 'worst first', judge: () => search.unordered([r('A', 0.2), r('B', 0.9)]) }],
    accepted: [
      { what: 'best first', judge: () => search.unordered([r('A', 0.9), r('B', 0.2)]) },
      {
        what: 'ties in any order',
        judge: () => search.unordered([r('B', 0.5), r('A', 0.5), r('C', 0.1)]),
        unseen: true,
      },
      {
        what: 'unscored results in between',
        judge: () => search.unordered([r('A', 0.9), r('X'), r('B', 0.3)]),
        unseen: true,
      },
    ],
  },
  'OVER-MAX': {
    rejected: [{ what: '3 at max 2', judge: () => search.overMax([r('A'), r('B'), r('C')], 2) }],
    accepted: [
      { what: '2 at max 2', judge: () => search.overMax([r('A'), r('B')], 2) },
      { what: 'fewer than asked (a system cap)', judge: () => search.overMax([r('A')], 2), unseen: true },
    ],
  },
  'NONPOSITIVE-MAX-ACCEPTED': {
    rejected: [{ what: '0 accepted', judge: () => search.nonPositiveMaxAccepted(0, { status: 200, success: true }) }],
    accepted: [
      { what: 'rejected with 400', judge: () => search.nonPositiveMaxAccepted(0, { status: 400, success: false }) },
      {
        what: 'rejected on HTTP 200 with success=false',
        judge: () => search.nonPositiveMaxAccepted(-1, { status: 200, success: false }),
        unseen: true,
      },
      {
        what: 'a bare 422 without an envelope',
        judge: () => search.nonPositiveMaxAccepted(0, { status: 422 }),
        unseen: true,
      },
    ],
  },
  'SCORE-OUT-OF-RANGE': {
    rejected: [
      { what: 'a percentage', judge: () => search.scoreOutOfRange([r('A', 87)]) },
      { what: 'a string', judge: () => search.scoreOutOfRange([r('A', '0.9')]) },
    ],
    accepted: [
      { what: 'scores within', judge: () => search.scoreOutOfRange([r('A', 0.87)]) },
      { what: 'exactly 0 and 1', judge: () => search.scoreOutOfRange([r('A', 1), r('B', 0)]), unseen: true },
    ],
  },
  'SAME-IDENTITY-VALUE': {
    rejected: [{ what: 'X', judge: () => search.sameIdentityValue([r('A', 0.5, 'X')]) }],
    accepted: [
      { what: 'Y and N', judge: () => search.sameIdentityValue([r('A', 1, 'Y'), r('B', 0.1, 'N')]) },
      {
        what: 'U for every result',
        judge: () => search.sameIdentityValue([r('A', 0.99, 'U'), r('B', 0.98, 'U')]),
        unseen: true,
      },
    ],
  },
  'RESULTS-MISSING': {
    rejected: [{ what: 'no searchResults', judge: () => search.resultsMissing({}) }],
    accepted: [
      { what: 'an empty list', judge: () => search.resultsMissing({ searchResults: [] }) },
      {
        what: 'a list beside members of its own',
        judge: () => search.resultsMissing({ searchResults: [], took: 3 }),
        unseen: true,
      },
    ],
  },
  'NON-MATCH-LISTED': {
    rejected: [{ what: 'the closest candidate at 0.31', judge: () => search.nonMatchListed([r('A', 0.31)], 0.99) }],
    accepted: [
      { what: 'nothing', judge: () => search.nonMatchListed([], 0.99) },
      {
        what: 'a candidate the deployment scores 0.995',
        judge: () => search.nonMatchListed([r('A', 0.995)], 0.99),
        unseen: true,
      },
    ],
  },
  'EXACT-NOT-FOUND': {
    rejected: [{ what: 'not found', judge: () => search.exactNotFound('L1', false) }],
    accepted: [
      { what: 'found', judge: () => search.exactNotFound('L1', true) },
      {
        what: 'found, link ID a UUID',
        judge: () => search.exactNotFound('0d9e3c1a-7f1e-4f4e-9a51-2d1d2b5e6f70', true),
        unseen: true,
      },
    ],
  },
  'UNTHRESHOLDED-FILTERS': {
    rejected: [
      {
        what: 'a shorter unthresholded list without it',
        judge: () => search.unthresholdedFilters(new Set(['A', 'B']), [r('A', 1)], [r('A', 1), r('B', 0.4)]),
      },
      {
        what: 'a list holding a lower score without it',
        judge: () =>
          search.unthresholdedFilters(new Set(['B']), [r('A', 1), r('X', 0.1), r('Y', 0.05)], [r('A', 1), r('B', 0.4)]),
      },
    ],
    accepted: [
      {
        what: 'every result there',
        judge: () =>
          search.unthresholdedFilters(new Set(['A', 'B']), [r('A', 1), r('B', 0.4)], [r('A', 1), r('B', 0.4)]),
      },
      {
        what: 'a list cut by a system maximum of 1, a tie at the cut',
        judge: () => search.unthresholdedFilters(new Set(['B']), [r('A', 0.4)], [r('B', 0.4)]),
        unseen: true,
      },
      {
        what: 'no scores, lists of equal length',
        judge: () => search.unthresholdedFilters(new Set(['B']), [r('A'), r('C')], [r('A'), r('B')]),
        unseen: true,
      },
    ],
  },
  'DEFAULT-MAX-FEWER': {
    rejected: [{ what: 'only the best', judge: () => search.defaultMaxFewer(1, 2, 2) }],
    accepted: [
      { what: 'more', judge: () => search.defaultMaxFewer(5, 2, 2) },
      { what: 'the same (a system maximum of 2)', judge: () => search.defaultMaxFewer(2, 2, 2), unseen: true },
    ],
  },
  'NO-RESULT': {
    rejected: [{ what: 'an empty list', judge: () => search.noResult([]) }],
    accepted: [
      { what: 'the person itself', judge: () => search.noResult([r('A', 1)]) },
      { what: 'one other person, no score', judge: () => search.noResult([r('B')]), unseen: true },
    ],
  },
  // query
  'NATIVEID-WRONG-IDENTITY': {
    rejected: [
      {
        what: 'grouped under a master record',
        judge: () =>
          query.nativeIdWrongIdentity({ name: 's', id: 'n' }, 'L1', {
            linkId: 'L1',
            grouped: [{ name: 'master', id: 'm' }],
          }),
      },
    ],
    accepted: [
      {
        what: 'the source listed',
        judge: () =>
          query.nativeIdWrongIdentity({ name: 's', id: 'n' }, 'L1', {
            linkId: 'L1',
            grouped: [{ name: 's', id: 'n' }],
          }),
      },
      {
        what: 'no identityGroupedBySource at all',
        judge: () => query.nativeIdWrongIdentity({ name: 's', id: 'n' }, 'L1', { linkId: 'L1', grouped: [] }),
        unseen: true,
      },
    ],
  },
  'QUERY-NOT-BEST': {
    rejected: [
      { what: 'the worst candidate', judge: () => query.queryNotBest('B', [r('A', 0.9), r('B', 0.3)]) },
      { what: 'not a candidate at all', judge: () => query.queryNotBest('Z', [r('A', 0.9)]) },
    ],
    accepted: [
      { what: 'the top result', judge: () => query.queryNotBest('A', [r('A', 0.9), r('B', 0.3)]) },
      {
        what: 'one of two tied at the top, listed second',
        judge: () => query.queryNotBest('B', [r('A', 0.9), r('B', 0.9)]),
        unseen: true,
      },
      { what: 'no scores, the first result', judge: () => query.queryNotBest('A', [r('A'), r('B')]), unseen: true },
    ],
  },
  'QUERY-MISSES-EXACT': {
    rejected: [{ what: 'never returned', judge: () => query.queryMissesExact('L1', false) }],
    accepted: [
      { what: 'returned', judge: () => query.queryMissesExact('L1', true) },
      {
        what: 'returned, numeric link ID',
        judge: () => query.queryMissesExact('1234567890123456789', true),
        unseen: true,
      },
    ],
  },
  'IDQUERY-OTHER-IDENTITY': {
    rejected: [{ what: 'another identity', judge: () => query.idQueryOtherIdentity('L1', 'L2') }],
    accepted: [
      { what: 'the identity asked for', judge: () => query.idQueryOtherIdentity('L1', 'L1') },
      { what: 'a reply without linkId', judge: () => query.idQueryOtherIdentity('L1', undefined), unseen: true },
    ],
  },
  'REQUESTED-NOT-ECHOED': {
    rejected: [
      { what: 'not echoed', judge: () => query.requestedNotEchoed('L1', undefined) },
      { what: "the survivor's link ID echoed", judge: () => query.requestedNotEchoed('L1', 'L2') },
    ],
    accepted: [
      { what: 'echoed', judge: () => query.requestedNotEchoed('L1', 'L1') },
      { what: 'echoed, a URN', judge: () => query.requestedNotEchoed('urn:l:1', 'urn:l:1'), unseen: true },
    ],
  },
  'QUERY-THRESHOLD-DIFFERS': {
    rejected: [
      {
        what: 'query found, post did not link',
        judge: () => query.queryThresholdDiffers([{ what: 'typo', queried: true, linked: false }]),
      },
    ],
    accepted: [
      { what: 'both yes', judge: () => query.queryThresholdDiffers([{ what: 'copy', queried: true, linked: true }]) },
      {
        what: 'a strict deployment: only the exact copy matches either way',
        judge: () =>
          query.queryThresholdDiffers([
            { what: 'copy', queried: true, linked: true },
            { what: 'typo', queried: false, linked: false },
          ]),
        unseen: true,
      },
    ],
  },
  // relationships
  'RELATIONSHIP-WITHOUT-ID': {
    rejected: [
      { what: 'no relationship', judge: () => relationships.relationshipWithoutId(undefined) },
      { what: 'no id', judge: () => relationships.relationshipWithoutId({ relationshipVerb: 'x' }) },
    ],
    accepted: [
      { what: 'an id', judge: () => relationships.relationshipWithoutId({ id: 'r1' }) },
      {
        what: 'an id and nothing else',
        judge: () => relationships.relationshipWithoutId({ id: '0d9e3c1a' }),
        unseen: true,
      },
    ],
  },
  'ECHO-OTHER-VALUE': {
    rejected: [
      {
        what: 'another subject',
        judge: () =>
          relationships.echoOtherValue({ subjectServiceId: 'L1', relationshipVerb: 'v' }, { subjectServiceId: 'L9' }, [
            'relationshipVerb',
          ]),
      },
    ],
    accepted: [
      {
        what: 'the values sent',
        judge: () =>
          relationships.echoOtherValue(
            { subjectServiceId: 'L1', relationshipVerb: 'v' },
            { subjectServiceId: 'L1', relationshipVerb: 'v' },
            ['relationshipVerb'],
          ),
      },
      {
        what: 'members under other names (subjectLinkId) and the verb upper-cased',
        judge: () =>
          relationships.echoOtherValue(
            { subjectServiceId: 'L1', relationshipVerb: 'affiliatedWith' },
            { subjectLinkId: 'L1', relationshipVerb: 'AFFILIATEDWITH' },
            ['relationshipVerb'],
          ),
        unseen: true,
      },
    ],
  },
  'RELATIONSHIP-NOT-FOUND': {
    rejected: [{ what: 'not found', judge: () => relationships.relationshipNotFound('r1', 'subject', false) }],
    accepted: [
      { what: 'found', judge: () => relationships.relationshipNotFound('r1', 'subject', true) },
      {
        what: 'found after a lag',
        judge: () => relationships.relationshipNotFound('r1', 'object and verb', true),
        unseen: true,
      },
    ],
  },
  'OFF-CRITERIA': {
    rejected: [
      {
        what: 'another subject',
        judge: () => relationships.offCriteria({ subjectServiceId: 'L1' }, [{ id: 'r2', subjectServiceId: 'L2' }]),
      },
      {
        what: 'another verb',
        judge: () =>
          relationships.offCriteria({ relationshipVerb: 'affiliatedWith' }, [
            { id: 'r2', relationshipVerb: 'affiliateOf' },
          ]),
      },
    ],
    accepted: [
      {
        what: 'only matching ones',
        judge: () => relationships.offCriteria({ subjectServiceId: 'L1' }, [{ id: 'r1', subjectServiceId: 'L1' }]),
      },
      {
        what: 'results naming the subject in another member',
        judge: () => relationships.offCriteria({ subjectServiceId: 'L1' }, [{ id: 'r1', subjectLinkId: 'L1' }]),
        unseen: true,
      },
      {
        what: 'the verb asked for in upper case',
        judge: () =>
          relationships.offCriteria({ relationshipVerb: 'affiliatedWith' }, [
            { id: 'r1', relationshipVerb: 'AFFILIATEDWITH' },
          ]),
        unseen: true,
      },
    ],
  },
  'DELETE-ECHOES-OTHER': {
    rejected: [{ what: 'another id', judge: () => relationships.deleteEchoesOther('r1', 'r2') }],
    accepted: [
      { what: 'the id', judge: () => relationships.deleteEchoesOther('r1', 'r1') },
      { what: 'no id in the reply', judge: () => relationships.deleteEchoesOther('r1', undefined), unseen: true },
    ],
  },
  'STILL-FOUND': {
    rejected: [{ what: 'still there', judge: () => relationships.stillFound('r1', true) }],
    accepted: [
      { what: 'gone', judge: () => relationships.stillFound('r1', false) },
      { what: 'gone, id a UUID', judge: () => relationships.stillFound('0d9e3c1a-7f1e', false), unseen: true },
    ],
  },
  'OTHER-DELETED': {
    rejected: [
      {
        what: 'the other relationship of the subject gone too',
        judge: () => relationships.otherDeleted('r1', 'r2', false),
      },
    ],
    accepted: [
      { what: 'the other one still found', judge: () => relationships.otherDeleted('r1', 'r2', true) },
      {
        what: 'still found, ids UUIDs',
        judge: () => relationships.otherDeleted('0d9e3c1a-7f1e', '5b2a-11c0', true),
        unseen: true,
      },
    ],
  },
  // notifications
  'PAGE-OVER-SIZE': {
    rejected: [{ what: 'pageSize + 1', judge: () => notifications.pageOverSize([page(4, true)], 3) }],
    accepted: [
      { what: 'full pages', judge: () => notifications.pageOverSize([page(3, true), page(1, false)], 3) },
      {
        what: 'a server cap of 2',
        judge: () => notifications.pageOverSize([page(2, true), page(2, false)], 3),
        unseen: true,
      },
    ],
  },
  'HASNEXT-CONTRADICTS-TOTAL': {
    rejected: [
      { what: 'hasNext false on page 1 of 2', judge: () => notifications.hasNextContradictsTotal([page(3, false, 5)]) },
    ],
    accepted: [
      {
        what: 'true then false',
        judge: () => notifications.hasNextContradictsTotal([page(3, true, 5), page(2, false, 5)]),
      },
      { what: 'no totalElements', judge: () => notifications.hasNextContradictsTotal([page(3, false)]), unseen: true },
      {
        what: 'hasNext as "Y" (its type is the contract\'s business)',
        judge: () => notifications.hasNextContradictsTotal([page(3, 'Y', 5)]),
        unseen: true,
      },
    ],
  },
  'PAGES-MISS-WINDOW': {
    rejected: [
      { what: 'a page never reached', judge: () => notifications.pagesMissWindow([{ i: 1 }], [{ i: 1 }, { i: 2 }]) },
    ],
    accepted: [
      {
        what: 'the same notifications',
        judge: () => notifications.pagesMissWindow([{ i: 1 }, { i: 2 }], [{ i: 2 }, { i: 1 }]),
      },
      {
        what: 'two alike notifications both times (no IDs, no times)',
        judge: () =>
          notifications.pagesMissWindow(
            [{ kind: 'UPDATE' }, { kind: 'UPDATE' }],
            [{ kind: 'UPDATE' }, { kind: 'UPDATE' }],
          ),
        unseen: true,
      },
    ],
  },
  'PAGES-REPEAT': {
    rejected: [
      {
        what: 'the last of page 1 again',
        judge: () => notifications.pagesRepeat([{ i: 1 }, { i: 2 }, { i: 2 }], [{ i: 1 }, { i: 2 }]),
      },
    ],
    accepted: [
      { what: 'each once', judge: () => notifications.pagesRepeat([{ i: 1 }, { i: 2 }], [{ i: 1 }, { i: 2 }]) },
      {
        what: 'two alike notifications of two events',
        judge: () =>
          notifications.pagesRepeat(
            [
              { kind: 'UPDATE', nativeId: 'n' },
              { kind: 'UPDATE', nativeId: 'n' },
            ],
            [
              { kind: 'UPDATE', nativeId: 'n' },
              { kind: 'UPDATE', nativeId: 'n' },
            ],
          ),
        unseen: true,
      },
    ],
  },
  'PAGE-WITHOUT-PAGING': {
    rejected: [
      { what: 'a page without either', judge: () => notifications.pageWithoutPaging([{ notifications: [] }]) },
      {
        what: 'a null total on the second page',
        judge: () =>
          notifications.pageWithoutPaging([
            { notifications: [1], hasNext: true, totalElements: 2 },
            { notifications: [2], hasNext: false, totalElements: null },
          ]),
      },
    ],
    accepted: [
      {
        what: 'both on every page',
        judge: () => notifications.pageWithoutPaging([{ notifications: [], hasNext: false, totalElements: 0 }]),
      },
      {
        what: 'values the other clauses judge',
        judge: () => notifications.pageWithoutPaging([{ notifications: [], hasNext: 'no', totalElements: -1 }]),
        unseen: true,
      },
    ],
  },
  'TOTAL-NOT-COUNT': {
    rejected: [{ what: 'the page size as total', judge: () => notifications.totalNotCount([3, 3], 5) }],
    accepted: [
      { what: 'the count', judge: () => notifications.totalNotCount([5, 5], 5) },
      { what: 'no totals', judge: () => notifications.totalNotCount([undefined, null], 5), unseen: true },
    ],
  },
  'CHANGE-NOT-NOTIFIED': {
    rejected: [
      { what: 'no new notification', judge: () => notifications.changeNotNotified('the merge', ['n1', 'L1'], 2, 2) },
    ],
    accepted: [
      { what: 'one more', judge: () => notifications.changeNotNotified('the merge', ['n1', 'L1'], 2, 3) },
      {
        what: 'three more (one per record and identity)',
        judge: () => notifications.changeNotNotified('the merge', ['n1', 'L1', 'L2'], 0, 3),
        unseen: true,
      },
    ],
  },
  'NOTIFIED-OUTSIDE-PERIOD': {
    rejected: [
      {
        what: 'in the window before',
        judge: () =>
          notifications.notifiedOutsidePeriod('n1', [{ what: 'before', notifications: [{ source: { id: 'n1' } }] }]),
      },
    ],
    accepted: [
      {
        what: 'none there',
        judge: () => notifications.notifiedOutsidePeriod('n1', [{ what: 'before', notifications: [] }]),
      },
      {
        what: 'other records only, notifications stamped with times outside the window',
        judge: () =>
          notifications.notifiedOutsidePeriod('n1', [
            { what: 'before', notifications: [{ ts: '1970-01-01T00:00:00Z', about: 'n2' }] },
          ]),
        unseen: true,
      },
    ],
  },
  // authentication
  'UNAUTHENTICATED-ACCEPTED': {
    rejected: [
      {
        what: 'a write served',
        judge: () => auth.unauthenticatedAccepted([{ op: 'postIdentity', answer: { status: 200, success: true } }]),
      },
    ],
    accepted: [
      { what: '401', judge: () => auth.unauthenticatedAccepted([{ op: 'postIdentity', answer: { status: 401 } }]) },
      {
        what: 'a redirect to a login page, and an enveloped failure on HTTP 200',
        judge: () =>
          auth.unauthenticatedAccepted([
            { op: 'postIdentity', answer: { status: 302 } },
            { op: 'nativeIdQuery', answer: { status: 200, success: false } },
          ]),
        unseen: true,
      },
    ],
  },
  'UNAUTHENTICATED-LEAKS': {
    rejected: [
      {
        what: 'an identity in a 401',
        judge: () => auth.unauthenticatedLeaks([{ op: 'nativeIdQuery', sent: {}, content: { identity: { a: 1 } } }]),
      },
    ],
    accepted: [
      {
        what: 'no content',
        judge: () => auth.unauthenticatedLeaks([{ op: 'nativeIdQuery', sent: {}, content: null }]),
      },
      {
        what: 'the request content echoed in the failure',
        judge: () =>
          auth.unauthenticatedLeaks([{ op: 'identityIdQuery', sent: { linkId: 'L1' }, content: { linkId: 'L1' } }]),
        unseen: true,
      },
    ],
  },
  'UNAUTHENTICATED-CHANGES': {
    rejected: [{ what: 'a record moved', judge: () => auth.unauthenticatedChanges({ a: 'L1' }, { a: 'L2' }) }],
    accepted: [
      {
        what: 'nothing changed',
        judge: () => auth.unauthenticatedChanges({ a: 'L1', relationship: true }, { a: 'L1', relationship: true }),
      },
      {
        what: 'nothing changed, no relationship to look at',
        judge: () => auth.unauthenticatedChanges({ a: 'L1 {}' }, { a: 'L1 {}' }),
        unseen: true,
      },
    ],
  },
  // bad input
  'IDENTITY-MISSING-ACCEPTED': {
    rejected: [
      {
        what: 'answered as an empty search',
        judge: () => bad.invalidAccepted('demographicsSearch without identity', { status: 200, success: true }),
      },
    ],
    accepted: [
      { what: '400', judge: () => bad.invalidAccepted('x', { status: 400, success: false }) },
      {
        what: 'HTTP 500 with success=false',
        judge: () => bad.invalidAccepted('x', { status: 500, success: false }),
        unseen: true,
      },
    ],
  },
  'OVER-LIMIT-ACCEPTED': {
    rejected: [{ what: '11 accepted', judge: () => bad.invalidAccepted('11 names', { status: 200, success: true }) }],
    accepted: [
      { what: 'rejected', judge: () => bad.invalidAccepted('11 names', { status: 400, success: false }) },
      {
        what: 'rejected on HTTP 413 without envelope',
        judge: () => bad.invalidAccepted('11 names', { status: 413 }),
        unseen: true,
      },
    ],
  },
  'BAD-INPUT-ACCEPTED': {
    rejected: [
      {
        what: 'a malformed DATE stored',
        judge: () => bad.invalidAccepted('foundedDate 2020/01/31', { status: 200, success: true }),
      },
    ],
    accepted: [
      { what: 'rejected', judge: () => bad.invalidAccepted('x', { status: 400, success: false }) },
      {
        what: 'rejected on HTTP 200 with success=false',
        judge: () => bad.invalidAccepted('x', { status: 200, success: false }),
        unseen: true,
      },
    ],
  },
  'BAD-INPUT-UNANSWERED': {
    rejected: [{ what: 'HTTP 200 without success', judge: () => bad.badInputUnanswered('x', { status: 200 }) }],
    accepted: [
      { what: '400', judge: () => bad.badInputUnanswered('x', { status: 400, success: false }) },
      {
        what: 'an enveloped 500',
        judge: () => bad.badInputUnanswered('x', { status: 500, success: false }),
        unseen: true,
      },
    ],
  },
  'BAD-INPUT-RETRYABLE': {
    rejected: [{ what: 'retryable', judge: () => bad.badInputRetryable('x', true) }],
    accepted: [
      { what: 'false', judge: () => bad.badInputRetryable('x', false) },
      { what: 'left out', judge: () => bad.badInputRetryable('x', undefined), unseen: true },
    ],
  },
  'SERVER-ERROR': {
    rejected: [{ what: 'a bare 500', judge: () => bad.serverError('x', { status: 500 }) }],
    accepted: [
      { what: '400', judge: () => bad.serverError('x', { status: 400, success: false }) },
      {
        what: 'an enveloped 500 failure',
        judge: () => bad.serverError('x', { status: 500, success: false }),
        unseen: true,
      },
    ],
  },
  'REJECTED-CHANGED': {
    rejected: [{ what: 'a record moved', judge: () => bad.rejectedChanged('x', ['A moved']) }],
    accepted: [
      { what: 'nothing', judge: () => bad.rejectedChanged('x', []) },
      {
        what: 'nothing, on a lenient 200 failure',
        judge: () => bad.rejectedChanged('x (HTTP 200, success=false)', []),
        unseen: true,
      },
    ],
  },
  // person
  'HOUSEHOLD-NOT-SHARED': {
    rejected: [{ what: 'singletons', judge: () => person.householdNotShared(['L1', 'L2'], false) }],
    accepted: [
      { what: 'one household', judge: () => person.householdNotShared(['L1', 'L2'], true) },
      { what: 'one household, UUIDs', judge: () => person.householdNotShared(['0d9e', '1a2b'], true), unseen: true },
    ],
  },
  'DATASOURCES-NOT-REPORTED': {
    rejected: [
      {
        what: 'only the first reported',
        judge: () => person.dataSourcesNotReported(['a', 'b'], [{ datasource: 'a' }]),
      },
    ],
    accepted: [
      {
        what: 'every name',
        judge: () => person.dataSourcesNotReported(['a', 'b'], [{ datasource: 'b' }, { datasource: 'a' }]),
      },
      {
        what: 'results under another member name',
        judge: () => person.dataSourcesNotReported(['a', 'b'], [{ name: 'a' }]),
        unseen: true,
      },
      { what: 'no results member', judge: () => person.dataSourcesNotReported(['a'], undefined), unseen: true },
    ],
  },
  'TEN-REFUSED': {
    rejected: [{ what: '10 refused', judge: () => person.tenRefused({ status: 400, success: false }) }],
    accepted: [
      { what: 'accepted', judge: () => person.tenRefused({ status: 200, success: true }) },
      { what: 'accepted with 201', judge: () => person.tenRefused({ status: 201, success: true }), unseen: true },
    ],
  },
  'DATASOURCE-UNAVAILABLE': {
    rejected: [
      { what: 'still refused', judge: () => person.dataSourceUnavailable('ds', 900, { status: 400, success: false }) },
    ],
    accepted: [
      { what: 'at once', judge: () => person.dataSourceUnavailable('ds', 0, { status: 200, success: true }) },
      {
        what: 'after 14 minutes',
        judge: () => person.dataSourceUnavailable('ds', 840, { status: 200, success: true }),
        unseen: true,
      },
    ],
  },
  'ATTRIBUTE-WITHOUT-SOURCES': {
    rejected: [
      {
        what: 'no sources',
        judge: () =>
          person.attributeWithoutSources([{ at: 'names[0]', o: { firstName: 'a', clusterStatus: 'ACTIVE' } }]),
      },
    ],
    accepted: [
      {
        what: 'sources and ACTIVE',
        judge: () => person.attributeWithoutSources([{ at: 'names[0]', o: { sources: [], clusterStatus: 'ACTIVE' } }]),
      },
      {
        what: 'another clusterStatus value',
        judge: () =>
          person.attributeWithoutSources([{ at: 'names[0]', o: { sources: [{}], clusterStatus: 'PENDING' } }]),
        unseen: true,
      },
    ],
  },
  'ATTRIBUTE-NOT-ATTRIBUTED': {
    rejected: [
      {
        what: 'only another native ID',
        judge: () =>
          person.attributeNotAttributed(['names'], [{ kind: 'names', o: { sources: [{ nativeId: 'other' }] } }], 'n1'),
      },
    ],
    accepted: [
      {
        what: 'the record named',
        judge: () =>
          person.attributeNotAttributed(['names'], [{ kind: 'names', o: { sources: [{ nativeId: 'n1' }] } }], 'n1'),
      },
      {
        what: 'entries that name sourceId only',
        judge: () =>
          person.attributeNotAttributed(['names'], [{ kind: 'names', o: { sources: [{ sourceId: 's-1' }] } }], 'n1'),
        unseen: true,
      },
    ],
  },
  'REACTIVATED-NOT-MATCHING': {
    rejected: [{ what: 'the copy alone', judge: () => post.exactCopyNotLinked('L1', 'L2') }],
    accepted: [
      { what: 'joined', judge: () => post.exactCopyNotLinked('L1', 'L1') },
      { what: 'joined, numeric link IDs', judge: () => post.exactCopyNotLinked('42', '42'), unseen: true },
    ],
  },
  'MATCHED-NOT-SPLIT': {
    rejected: [
      { what: 'still together', judge: () => person.matchedNotSplit('L1', 'L1') },
      { what: 'in no identity', judge: () => person.matchedNotSplit('L1', undefined) },
    ],
    accepted: [
      { what: 'a new link ID', judge: () => person.matchedNotSplit('L1', 'L3') },
      {
        what: 'the original moved instead, the split one kept the old',
        judge: () => person.matchedNotSplit('L4', 'L1'),
        unseen: true,
      },
    ],
  },
  // matching
  'MONOTONE-BROKEN': {
    rejected: [
      { what: 'a shifted score', judge: () => matching.monotoneBroken(hits(['A', 0.8]), hits(['A', 0.7]), {}, 'p') },
    ],
    accepted: [
      {
        what: 'a subset',
        judge: () => matching.monotoneBroken(hits(['A', 0.8]), hits(['A', 0.8], ['B', 0.2]), {}, 'p'),
      },
      {
        what: 'one cut off at threshold 0 by maxSearchResults',
        judge: () => matching.monotoneBroken(hits(['C', 0.2]), hits(['A', 0.8], ['B', 0.2]), { at: 0.2 }, 'p'),
        unseen: true,
      },
    ],
  },
  'PREFIX-BROKEN': {
    rejected: [
      {
        what: 'the second best first',
        judge: () => matching.prefixBroken(hits(['B', 0.5]), hits(['A', 0.9], ['B', 0.5]), 'p'),
      },
    ],
    accepted: [
      {
        what: 'the first one',
        judge: () => matching.prefixBroken(hits(['A', 0.9]), hits(['A', 0.9], ['B', 0.5]), 'p'),
      },
      {
        what: 'a tie at the cut in another order',
        judge: () => matching.prefixBroken(hits(['B', 0.5]), hits(['A', 0.5], ['B', 0.5]), 'p'),
        unseen: true,
      },
    ],
  },
  'SELF-NOT-FIRST': {
    rejected: [{ what: 'second', judge: () => matching.selfNotFirst('A', hits(['B', 0.9], ['A', 0.8])) }],
    accepted: [
      { what: 'first', judge: () => matching.selfNotFirst('A', hits(['A', 1], ['B', 0.4])) },
      {
        what: 'tied first, listed first',
        judge: () => matching.selfNotFirst('A', hits(['A', 1], ['B', 1])),
        unseen: true,
      },
    ],
  },
  NONDETERMINISTIC: {
    rejected: [{ what: 'jitter', judge: () => matching.nondeterministic('A:0.8', [{ what: 'again', key: 'A:0.81' }]) }],
    accepted: [
      { what: 'the same', judge: () => matching.nondeterministic('A:0.8', [{ what: 'again', key: 'A:0.8' }]) },
      {
        what: 'the same, views asked for',
        judge: () => matching.nondeterministic('', [{ what: 'view', key: '' }]),
        unseen: true,
      },
    ],
  },
  'THRESHOLDS-CONTRADICT': {
    rejected: [
      {
        what: 'linked at 0.7, not at 0.8',
        judge: () => matching.thresholdsContradict([decision('a', 0.8, false), decision('b', 0.7, true)]),
      },
    ],
    accepted: [
      {
        what: 'one threshold',
        judge: () => matching.thresholdsContradict([decision('a', 0.8, true), decision('b', 0.7, false)]),
      },
      {
        what: 'nothing ever links',
        judge: () => matching.thresholdsContradict([decision('a', 1, false), decision('b', 0.2, false)]),
        unseen: true,
      },
    ],
  },
  'DELETED-DATA-STILL-SCORES': {
    rejected: [{ what: 'the same score after the delete', judge: () => matching.deletedDataStillScores(1, 1, 0.2) }],
    accepted: [
      { what: 'fell back', judge: () => matching.deletedDataStillScores(0.2, 1, 0.2) },
      {
        what: 'the survivor drops out',
        judge: () => matching.deletedDataStillScores(undefined, 1, undefined),
        unseen: true,
      },
      {
        what: 'a deployment scoring an identity by one record only',
        judge: () => matching.deletedDataStillScores(0.3, 0.3, 0.3),
        unseen: true,
      },
    ],
  },
};

const kept =
  (type: Parameters<typeof boundaries.sameValue>[0], sent: unknown, shown: unknown[], memberShown = false) =>
  () =>
    boundaries.valueNotKept([{ what: 'a boundary value', type, sent, shown, memberShown }]);
ROWS['VALUE-NOT-KEPT'] = {
  rejected: [
    { what: 'text cut at 255', judge: kept('TEXT', 'x'.repeat(256), ['x'.repeat(255)]) },
    { what: 'an emoji kept as "?"', judge: kept('TEXT', 'Clinic 🏥', ['Clinic ?']) },
    { what: 'a combining mark dropped', judge: kept('TEXT', 'Cafe\u0301', ['Cafe']) },
    { what: 'a backslash escaped', judge: kept('TEXT', 'C:\\temp', ['C:\\\\temp']) },
    {
      what: 'a NUMBER rounded as a double',
      judge: kept('NUMBER', '123456789012345678901234567890', ['1.2345678901234568e+29']),
    },
    { what: 'a leap day rolled over', judge: kept('DATE', '2024-02-29', ['2024-03-01']) },
    { what: 'a date a day early', judge: kept('DATE', '1969-12-31', ['1969-12-30T23:00:00Z']) },
    {
      what: 'an instant moved to midnight',
      judge: kept('DATE-TIME', '2024-02-29T23:59:59Z', ['2024-02-29T00:00:00Z']),
    },
    { what: 'left out where the member shows other values', judge: kept('TEXT', 'x', [], true) },
  ],
  accepted: [
    { what: 'the same text', judge: kept('TEXT', 'Ærøskøbing', ['Ærøskøbing']) },
    {
      what: 'text upper-cased and its spacing collapsed',
      judge: kept('TEXT', '  tab\there ', ['TAB HERE']),
      unseen: true,
    },
    { what: 'combining marks composed (NFC)', judge: kept('TEXT', 'Cafe\u0301', ['Café']), unseen: true },
    { what: 'a NUMBER written otherwise', judge: kept('NUMBER', '1.5e3', ['1500.00']), unseen: true },
    { what: 'leading zeros dropped', judge: kept('NUMBER', '007', ['7']), unseen: true },
    { what: 'a NUMBER as a JSON number', judge: kept('NUMBER', '-17', [-17]), unseen: true },
    {
      what: 'a date as the date of a date-time',
      judge: kept('DATE', '2024-02-29', ['2024-02-29T00:00:00Z']),
      unseen: true,
    },
    { what: 'a time with seconds', judge: kept('TIME', '23:59', ['23:59:00']), unseen: true },
    {
      what: 'an instant with +00:00 and milliseconds',
      judge: kept('DATE-TIME', '2024-01-01T00:00:00Z', ['2024-01-01T00:00:00.000+00:00']),
      unseen: true,
    },
    { what: 'a member the view leaves out', judge: kept('TEXT', 'x', [], false), unseen: true },
    { what: 'another element of the member holds another value', judge: kept('TEXT', 'x', ['other', 'x']) },
  ],
};
ROWS['NATIVE-ID-NOT-KEPT'] = {
  rejected: [
    {
      what: 'not found by its native ID',
      judge: () => boundaries.nativeIdNotKept('length 4096', 'cf-x-long', false, []),
    },
    { what: 'listed cut', judge: () => boundaries.nativeIdNotKept('length 256', 'cf-x-abcdef', true, ['cf-x-abc']) },
  ],
  accepted: [
    { what: 'listed as sent', judge: () => boundaries.nativeIdNotKept('quotes', 'cf-x-"q"', true, ['cf-x-"q"']) },
    {
      what: 'no grouping by source in the reply',
      judge: () => boundaries.nativeIdNotKept('quotes', 'cf-x-"q"', true, []),
      unseen: true,
    },
  ],
};
ROWS['PAGE-PAST-END'] = {
  rejected: [
    {
      what: 'the last page again far past the end',
      judge: () => boundaries.pagePastEnd({ pageNumber: 2 ** 31 - 1, firstPage: 0, pageSize: 10 }, 40, 10),
    },
  ],
  accepted: [
    {
      what: 'an empty page past the end',
      judge: () => boundaries.pagePastEnd({ pageNumber: 2 ** 31 - 1, firstPage: 0, pageSize: 10 }, 40, 0),
    },
    {
      what: 'a page inside the window',
      judge: () => boundaries.pagePastEnd({ pageNumber: 2, firstPage: 1, pageSize: 10 }, 40, 10),
    },
    {
      what: 'no totalElements given',
      judge: () => boundaries.pagePastEnd({ pageNumber: 2 ** 31, firstPage: 0, pageSize: 10 }, undefined, 10),
      unseen: true,
    },
  ],
};
const ALL = CHECK_AREAS.flatMap((a) => a.clauses);

describe('every clause of the single checks', () => {
  it.each(ALL.map((c) => [c.id, c] as const))(
    '%s has rows: a forbidden observation and two legal ones, one the reference never gives',
    (id) => {
      const row = ROWS[id];
      expect(row, `test/clauses.test.ts ROWS has no row for ${id}`).toBeDefined();
      expect(row!.rejected.length).toBeGreaterThan(0);
      expect(row!.accepted.length).toBeGreaterThanOrEqual(2);
      expect(row!.accepted.some((c) => c.unseen)).toBe(true);
    },
  );

  it('has no row for a clause that does not exist, and clause IDs are unique', () => {
    const ids = ALL.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(ROWS).filter((k) => !ids.includes(k))).toEqual([]);
  });

  it('cites a requirement in at least one service, and every MUST requirement it cites rests on a sentence holding its "on" words', () => {
    for (const c of ALL) {
      const cited = (['organization', 'person', 'provider'] as const).flatMap((s) => clauseRequirements(c, s));
      expect(cited.length, c.id).toBeGreaterThan(0);
      if (c.on && !c.cites.includes('*'))
        for (const id of cited) {
          const r = index.get(id)!;
          if (r.level === 'MUST') expect(restsOn(c, r)?.quote, `${c.id} on "${c.on}" in ${id}`).toContain(c.on);
        }
    }
  });
});

describe.each(Object.entries(ROWS))('clause %s', (_id, row) => {
  it.each(row.rejected.map((c) => [c.what, c] as const))('rejects: %s', (_w, c) => {
    expect(c.judge().length).toBeGreaterThan(0);
  });
  it.each(row.accepted.map((c) => [`${c.unseen ? '(never from the reference) ' : ''}${c.what}`, c] as const))(
    'accepts: %s',
    (_w, c) => {
      expect(c.judge()).toEqual([]);
    },
  );
});

describe('what a finding cites', () => {
  it('a finding carries the clause, the requirement and the sentence the clause rests on (its "on" words, else the first)', () => {
    const tenRefused = findingsOf(person.TEN_REFUSED, index.get('PERSON-DATASOURCE-LIMIT')!, [
      '10 data sources: HTTP 400',
    ]);
    expect(tenRefused[0]).toMatchObject({
      clause: 'TEN-REFUSED',
      requirement: 'PERSON-DATASOURCE-LIMIT',
      observed: '10 data sources: HTTP 400',
    });
    expect(tenRefused[0]!.forbids?.quote).toContain('up to 10 per call');
    const over = findingsOf(bad.OVER_LIMIT_ACCEPTED, index.get('PERSON-DATASOURCE-LIMIT')!, ['11 accepted']);
    expect(over[0]!.forbids?.quote).toBe('createDataSource accepts at most 10 data sources per call.');
    const threshold = findingsOf(search.BELOW_THRESHOLD, index.get('ORG-SEARCH-THRESHOLD')!, ['B:0.4']);
    expect(threshold[0]!.forbids?.quote).toContain('greater than or equal to `matchScoreThreshold`');
  });

  it('an EXPECT requirement gives no sentence', () => {
    expect(
      findingsOf(envelope.FAILURE_WITHOUT_REASON, index.get('ORG-ERR-CARRIED')!, ['x'])[0]!.forbids,
    ).toBeUndefined();
  });

  it('a clause resolves roles per service: the same clause cites each service its own requirement, and none where the service has no role', () => {
    expect(clauseRequirements(search.BELOW_THRESHOLD, 'organization')).toEqual(['ORG-SEARCH-THRESHOLD']);
    expect(clauseRequirements(search.BELOW_THRESHOLD, 'person')).toEqual(['PERSON-SEARCH-THRESHOLD']);
    expect(clauseRequirements(search.RESULTS_MISSING, 'person')).toEqual([]);
    expect(clauseRequirements(contract.WIRE_FORM, 'organization').sort()).toEqual(
      [
        'ORG-TYPE-BOOLEAN',
        'ORG-TYPE-DATE',
        'ORG-TYPE-DATETIME',
        'ORG-TYPE-NUMBER',
        'ORG-TYPE-TEXT',
        'ORG-TYPE-TIME',
      ].sort(),
    );
    expect(clauseRequirements(contract.CONTENT_SHAPE, 'organization')).toContain('ORG-OP-POSTIDENTITY');
    expect(clauseRequirements(contract.CONTENT_SHAPE, 'organization')).toContain('ORG-SEARCH-SCORE-RANGE');
    expect(clauseRequirements(contract.REQUEST_REFUSED, 'provider').length).toBe(SERVICES.provider.requirements.length);
  });
});

describe('a judgement as a check makes it (Check.judge)', () => {
  const check = () =>
    new Check('organization', ['ORG-SEARCH-THRESHOLD'], seededFaker(1), {} as never, {} as never, {} as never);
  const failureOf = (run: () => void) => {
    try {
      run();
    } catch (e) {
      return e;
    }
    return undefined;
  };

  it('accepts what its clause accepts, and fails with a finding per observation, naming the sentence, each said once', () => {
    const t = check();
    expect(
      failureOf(() =>
        t.judge(search.BELOW_THRESHOLD, 'ORG-SEARCH-THRESHOLD', search.belowThreshold([r('A', 0.9)], 0.6)),
      ),
    ).toBeUndefined();
    const e = failureOf(() =>
      t.judge(search.BELOW_THRESHOLD, 'ORG-SEARCH-THRESHOLD', search.belowThreshold([r('B', 0.4)], 0.6)),
    );
    expect(e).toBeInstanceOf(ConformanceFailure);
    const { report } = explainFailure(e, { verifies: ['ORG-SEARCH-THRESHOLD'], rules: index, exchanges: [] });
    expect(report?.findings).toEqual([
      expect.objectContaining({
        clause: 'BELOW-THRESHOLD',
        requirement: 'ORG-SEARCH-THRESHOLD',
        observed: 'B:0.4 at matchScoreThreshold 0.6',
      }),
    ]);
    const text = (e as Error).message;
    expect(text).toContain('forbidden by organization-identity-api.md, Endpoints, rule 1');
    expect(text.match(/B:0\.4 at matchScoreThreshold 0\.6/g)).toHaveLength(1);
  });

  it('refuses a requirement its clause does not cite (a bug of the suite, not a failure of the deployment)', () => {
    const e = failureOf(() => check().judge(search.BELOW_THRESHOLD, 'ORG-SEARCH-ORDER', ['x']));
    expect(e).not.toBeInstanceOf(ConformanceFailure);
    expect(String(e)).toContain('does not cite ORG-SEARCH-ORDER');
  });

  it('does not judge an EXPECT requirement the profile switches off', () => {
    const t = check();
    t.disabled = new Set(['ORG-ERR-CARRIED']);
    expect(
      failureOf(() => t.judge(envelope.FAILURE_WITHOUT_REASON, 'ORG-ERR-CARRIED', ['success=false, nothing else'])),
    ).toBeUndefined();
  });
});

describe('ENRICH-NOT-ASKED findings', () => {
  it('name where enrichment values stand, never the values (the identity may hold other sources)', () => {
    const found = envelope.enrichNotAsked('demographicsQuery', {
      enrichedDetails: { address: { line1: '12 Secret Lane' }, flags: [null, 'x'] },
    });
    expect(found).toEqual([
      'demographicsQuery not asking for enrichment answered values at enrichedDetails.address.line1, ' +
        'enrichedDetails.flags[1]',
    ]);
    expect(found.join(' ')).not.toContain('Secret');
  });
});
