/**
 * A check's call is typed by the operation it names: its reply's content has the type of that
 * operation's reply schema in the operations tables (specs/services.ts ReplyContent), with the
 * tolerance of the contract (members the seeds do not require are optional and nullable, extra
 * members are allowed). These assertions are checked by `tsc --noEmit` (test/code-quality.test.ts);
 * a table whose row lost its schema's type, or a call that named no operation, turns it red.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Check } from '../harness/check.js';
import type { Reply } from '../harness/reply.js';
import { SERVICES, type ReplyContent } from '../specs/services.js';

describe('reply content types', () => {
  it('follow the operation a check names', () => {
    // Never called: tsc checks its body.
    const typed = (t: Check) => {
      expectTypeOf(t.ok<'nativeIdQuery'>).returns.resolves.toEqualTypeOf<Reply<'nativeIdQuery'>>();
      expectTypeOf(t.call<'householdQuery'>).returns.resolves.toEqualTypeOf<Reply<'householdQuery'>>();
      // @ts-expect-error: no service has this operation
      void t.ok('notAnOperation', {});
    };
    expectTypeOf(typed).toBeFunction();
    expectTypeOf<Reply<'identityIdQuery'>['content']>().toEqualTypeOf<
      ReplyContent<'identityIdQuery'> | null | undefined
    >();
  });

  it('carry the members each operation documents, as tolerantly as the contract reads them', () => {
    // organization-identity-api.md, Endpoints, rule 3: requestedLinkId; optional and nullable (not marked required).
    expectTypeOf<ReplyContent<'identityIdQuery'>['requestedLinkId']>().toEqualTypeOf<string | null | undefined>();
    // searchResults is required (Endpoints: "searchResults[] (required ...)"); a result's matchScore is
    // required for the organization and provider, "not shown" for the person service.
    expectTypeOf<ReplyContent<'demographicsSearch'>['searchResults']>().toBeArray();
    expectTypeOf<ReplyContent<'demographicsSearch'>['searchResults'][number]['matchScore']>().toEqualTypeOf<
      number | null | undefined
    >();
    // person only: householdQuery's link IDs (members "not shown": the vendor description's names).
    expectTypeOf<ReplyContent<'householdQuery'>['linkIdsInHousehold']>().toEqualTypeOf<string[] | null | undefined>();
    // Extra members are allowed, read as unknown.
    expectTypeOf<ReplyContent<'mergeIdentities'>['vendorExtra']>().toEqualTypeOf<unknown>();
  });

  it('come from the same schemas the reply content is checked against', () => {
    // The person row of identityIdQuery replaces the shared schema (person reply members), the provider keeps it.
    const reply = (service: keyof typeof SERVICES, op: string) =>
      SERVICES[service].operations.find((o) => o.name === op)!.reply;
    expect(reply('person', 'identityIdQuery').safeParse({ requestedLinkId: 'L1', vinIds: [] }).success).toBe(true);
    expect(reply('provider', 'identityIdQuery').safeParse({ requestedLinkId: 7 }).success).toBe(false);
  });
});
