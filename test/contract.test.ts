/** Reply validation: JSON pointers with expected and received values; tolerant of extras and nulls. */
import { describe, expect, it } from 'vitest';
import { contentViolations, envelopeViolations } from '../harness/contract.js';
import { operation } from '../specs/services.js';

const search = operation('organization', 'demographicsSearch');

describe('reply validation', () => {
  it('accepts unknown extra members, and null or absent optional members', () => {
    expect(envelopeViolations({ success: true, vendorExtra: 1, message: null })).toEqual([]);
    expect(
      contentViolations(search, { searchResults: [{ matchScore: 0.5, sameIdentity: 'U', linkId: null, extra: {} }] }),
    ).toEqual([]);
  });

  it('lists each violation with its JSON pointer, what was expected and what came', () => {
    const v = contentViolations(search, {
      searchResults: [{ matchScore: 1.5, sameIdentity: 'X' }, { sameIdentity: 'Y' }],
    });
    expect(v).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '/content/searchResults/0/matchScore', got: '1.5' }),
        expect.objectContaining({ pointer: '/content/searchResults/0/sameIdentity', got: '"X"' }),
        expect.objectContaining({ pointer: '/content/searchResults/1/matchScore', expected: 'member "matchScore"' }),
      ]),
    );
  });

  it('checks wire data types inside identities (DATE, TIME, NUMBER, BOOLEAN)', () => {
    const query = operation('organization', 'nativeIdQuery');
    const identity = {
      foundedDate: [{ foundedDate: '2020/01/01' }],
      phoneNumbers: [{ bestTimeToContact: { startTime: '9am', allDay: 'yes' } }],
      numberOfEmployees: [{ numberOfEmployees: 12 }],
    };
    const pointers = contentViolations(query, { identity }).map((x) => x.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/content/identity/foundedDate/0/foundedDate',
        '/content/identity/phoneNumbers/0/bestTimeToContact/startTime',
        '/content/identity/phoneNumbers/0/bestTimeToContact/allDay',
        '/content/identity/numberOfEmployees/0/numberOfEmployees',
      ]),
    );
  });

  it('requires success to be a boolean in every envelope', () => {
    expect(envelopeViolations({ success: 'true' }).map((x) => x.pointer)).toEqual(['/success']);
    expect(envelopeViolations({}).map((x) => x.pointer)).toEqual(['/success']);
    expect(envelopeViolations({ success: false, errors: ['a', 3] }).map((x) => x.pointer)).toEqual(['/errors/1']);
  });
});

describe('which requirements a contract violation cites', () => {
  it('a DATE in the wrong form cites the DATE data-type requirement; a governed member cites its rule', async () => {
    const { requirementsOf } = await import('../harness/contract.js');
    const { requirementIndex } = await import('../specs/services.js');
    const index = requirementIndex();
    const query = operation('organization', 'nativeIdQuery');
    const dates = contentViolations(query, { identity: { foundedDate: [{ foundedDate: '01/31/2020' }] } });
    expect(requirementsOf(query, dates, index)).toEqual(['ORG-TYPE-DATE']);
    const post = operation('organization', 'postIdentity');
    expect(requirementsOf(post, contentViolations(post, { events: { kind: 'CREATE' } }), index)).toEqual([
      'ORG-POST-EVENTS',
    ]);
    expect(
      requirementsOf(
        search,
        contentViolations(search, { searchResults: [{ matchScore: 2, sameIdentity: 'Y' }] }),
        index,
      ),
    ).toEqual(['ORG-SEARCH-SCORE-RANGE']);
  });

  it('cites requirements of the replying service only, even given every catalogue', async () => {
    const { requirementsOf } = await import('../harness/contract.js');
    const { requirementIndex } = await import('../specs/services.js');
    const index = requirementIndex();
    for (const [service, prefix] of [
      ['organization', 'ORG'],
      ['person', 'PERSON'],
      ['provider', 'PROV'],
    ] as const) {
      const post = operation(service, 'postIdentity');
      const cited = requirementsOf(
        post,
        contentViolations(post, { events: { kind: 'CREATE' }, identity: { addresses: [{ latitude: {} }] } }),
        index,
      );
      expect(
        cited.filter((id) => !id.startsWith(`${prefix}-`)),
        `${service} cites another service's requirements`,
      ).toEqual([]);
    }
  });
});

describe('shapes only as strict as the seeds', () => {
  const notifications = operation('organization', 'searchNotifications');
  const relationships = operation('organization', 'addRelationshipService');
  const rel = (startDate: string) => contentViolations(relationships, { relationship: { id: 'r1', startDate } });

  it('DATE-TIME accepts every ISO 8601 UTC form: Z, +00:00 or +00, with fractional seconds of any length', () => {
    for (const v of [
      '2026-01-01T10:00:00Z',
      '2026-01-01T10:00:00.123Z',
      '2026-01-01T10:00:00.123456+00:00',
      '2026-01-01T10:00:00+00',
      '2024-02-29T23:59:59.1Z',
    ])
      expect(rel(v), v).toEqual([]);
  });

  it('DATE-TIME still rejects other offsets, -00:00, mixed basic offsets, missing seconds and impossible dates', () => {
    for (const v of [
      '2026-01-01T10:00:00+05:00',
      '2026-01-01T10:00:00-00:00',
      '2026-01-01T10:00:00+0000',
      '2026-01-01T10:00Z',
      '2026-02-30T10:00:00Z',
      '2026-01-01 10:00:00Z',
    ])
      expect(
        rel(v).map((x) => x.pointer),
        v,
      ).toEqual(['/content/relationship/startDate']);
  });

  it('NUMBER accepts a leading sign ("+17205551234") and an exponent ("1e5"), and rejects what is no number', () => {
    const query = operation('organization', 'nativeIdQuery');
    const phone = (number: string) =>
      contentViolations(query, { identity: { contactInformation: [{ phoneList: [{ number }] }] } });
    for (const v of ['+17205551234', '-3', '12.5', '.5', '1e5', '2.5E-4']) expect(phone(v), v).toEqual([]);
    for (const v of ['1-720-555', 'abc', '+', 'e5', '1e', '1e5.5']) expect(phone(v).length, v).toBe(1);
  });

  it('a notification page may leave out or null any member (none is marked required)', () => {
    expect(contentViolations(notifications, {})).toEqual([]);
    expect(
      contentViolations(notifications, { customerId: null, hasNext: null, notifications: null, totalElements: null }),
    ).toEqual([]);
    expect(
      contentViolations(notifications, { hasNext: 'no', totalElements: -1 })
        .map((x) => x.pointer)
        .sort(),
    ).toEqual(['/content/hasNext', '/content/totalElements']);
  });

  it('reply shapes the seed does not show are EXPECT: every provider operation, and the person operations without a members table', async () => {
    const { requirementIndex, SERVICES } = await import('../specs/services.js');
    const index = requirementIndex();
    for (const op of SERVICES.provider.operations)
      expect(index.get(op.shapeRequirement)?.level, op.shapeRequirement).toBe('EXPECT');
    const shown = ['postIdentity', 'demographicsQuery', 'demographicsSearch', 'identityIdQuery'];
    for (const op of SERVICES.person.operations)
      expect(index.get(op.shapeRequirement)?.level, op.shapeRequirement).toBe(
        shown.includes(op.name) ? 'MUST' : 'EXPECT',
      );
    for (const op of SERVICES.organization.operations)
      expect(index.get(op.shapeRequirement)?.level, op.shapeRequirement).toBe('MUST');
  });
});
