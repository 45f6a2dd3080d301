/**
 * The executable state tables moved by hand (specs/state/state-engine.ts applyStep, each row's
 * request outcome): per row, from the prior states its sentence names and from others, what the
 * model says afterwards, and which records the observation after the step must read
 * (scenarios/shared/walk/oracle.ts lookupScope). Pure: no request is sent.
 */
import { describe, expect, it } from 'vitest';
import type { SourceRef } from '../specs/common/wire.js';
import { applyStep } from '../specs/state/state-engine.js';
import { type StateSpec, rowOf } from '../specs/state/state-spec.js';
import type { StepName } from '../specs/state/step-names.js';
import { organizationStateSpec } from '../specs/organization/state-spec.js';
import { personStateSpec } from '../specs/person/state-spec.js';
import { providerStateSpec } from '../specs/provider/state-spec.js';
import { IdentityModel, type ModelRecord } from '../specs/state/identity-model.js';
import { lookupScope } from '../scenarios/shared/walk/oracle.js';
import { emptyApplied } from '../specs/state/state-engine.js';

/** A model with `n` active records A, B, C... each alone in its identity, observed at link IDs L1, L2, ... */
function model(n: number, kinds?: string[]): IdentityModel {
  const m = new IdentityModel();
  for (let i = 0; i < n; i++) {
    const source: SourceRef = { name: 'cf_test_a', id: `cf-${i}` };
    const r = m.add(source, {}, kinds?.[i]);
    m.lastLinks.set(r.group, `L${i + 1}`);
    m.lastLinkOf.set(r.label, `L${i + 1}`);
  }
  return m;
}
const at = (m: IdentityModel, ...labels: string[]) => labels.map((l) => m.get(l)!);
const step = (spec: StateSpec, m: IdentityModel, name: StepName, ...labels: string[]) => {
  const row = rowOf(spec, name);
  const recs = at(m, ...labels);
  const outcome = row.request(m, recs);
  const applied =
    outcome.verdict === 'reject'
      ? undefined
      : applyStep(m, row, recs, outcome.verdict, outcome.verdict === 'allow' || row.openApplies === true);
  return { outcome, applied };
};

describe("request outcomes from the named records' states", () => {
  it.each([
    ['organization: soft delete of an active source is allowed', organizationStateSpec, 'soft delete', [], 'allow'],
    [
      'organization: restore of an active source is open (preconditions are not shown)',
      organizationStateSpec,
      'restore',
      [],
      'open',
    ],
    [
      'organization: merge of two active sources of two identities is allowed',
      organizationStateSpec,
      'merge',
      ['B'],
      'allow',
    ],
    ['provider: merge across provider types is rejected', providerStateSpec, 'merge', ['B'], 'reject'],
  ] as const)('%s', (_what, spec, name, extra, verdict) => {
    const m = model(2, spec === providerStateSpec ? ['practitioner', 'healthFacility'] : undefined);
    const row = rowOf(spec, name);
    expect(row.request(m, at(m, 'A', ...extra)).verdict).toBe(verdict);
  });

  it("any step naming a hard-deleted source is inert: it must change nothing, by the hard delete's sentence", () => {
    const m = model(2);
    step(organizationStateSpec, m, 'hard delete', 'A');
    const o = rowOf(organizationStateSpec, 'restore').request(m, at(m, 'A'));
    expect(o.verdict).toBe('inert');
    expect(o.requirement).toBe('ORG-HARDDELETE-EFFECT');
    expect(o.seed.quote).toContain('all information of the source is removed');
  });
});

describe('effects', () => {
  it('merge: the retired source is retired into the survivor, which keeps its identity', () => {
    const m = model(2);
    const { applied } = step(organizationStateSpec, m, 'merge', 'A', 'B');
    const [a, b] = at(m, 'A', 'B');
    expect(b!.state).toBe('retired');
    expect(b!.retiredInto).toBe('A');
    expect(b!.mergedGroup).toBe(a!.group);
    expect(applied!.cites.get('B')?.requirement).toBe('ORG-MERGE-EFFECT');
    expect(applied!.cites.get('B')?.forbids?.quote).toContain('retired into');
  });

  it('unlink: the identity the source left may not list it any more (a listing mark, not a data mark: its data there is open)', () => {
    const m = model(2);
    step(organizationStateSpec, m, 'link', 'A', 'B');
    const from = m.get('A')!.group;
    step(organizationStateSpec, m, 'unlink', 'A', 'B');
    expect(m.get('B')!.group).not.toBe(from);
    expect(m.get('B')!.data.absentFrom).toEqual([expect.objectContaining({ group: from, data: false })]);
  });

  it("unmerge: the survivor may show none of the unmerged source's data any more (a data mark)", () => {
    const m = model(2);
    step(organizationStateSpec, m, 'merge', 'A', 'B');
    step(organizationStateSpec, m, 'unmerge', 'A', 'B');
    expect(m.get('B')!.data.absentFrom).toEqual([expect.objectContaining({ group: m.get('A')!.group, data: true })]);
  });

  it("person hard delete of an identity's only source record deletes the whole identity", () => {
    const m = model(2);
    const { applied } = step(personStateSpec, m, 'hard delete', 'A');
    expect(applied!.goneIdentities).toEqual([
      { group: 1, cite: expect.objectContaining({ requirement: 'PERSON-DELETE-ONLY-SOURCE' }) },
    ]);
  });

  it.each([
    ['it had another source', (m: IdentityModel) => step(personStateSpec, m, 'link', 'A', 'B')],
    ['a record was merged into it', (m: IdentityModel) => step(personStateSpec, m, 'merge', 'A', 'B')],
    ['a record of unknown state is about', (m: IdentityModel) => void (m.get('C')!.state = 'unknown')],
  ])('person hard delete does not delete the identity as a whole where %s', (_why, before) => {
    const m = model(3);
    before(m);
    expect(step(personStateSpec, m, 'hard delete', 'A').applied!.goneIdentities).toEqual([]);
  });

  it('organization and provider hard delete never delete an identity as a whole (the seeds speak of the source)', () => {
    for (const spec of [organizationStateSpec, providerStateSpec]) {
      const m = model(1);
      expect(step(spec, m, 'hard delete', 'A').applied!.goneIdentities).toEqual([]);
      expect(m.get('A')!.data.nowhere?.requirement).toMatch(/HARDDELETE-EFFECT$/);
    }
  });

  it('an open step lets the records it touches follow the deployment, and those merged into them become unknown', () => {
    const m = model(3);
    step(organizationStateSpec, m, 'merge', 'A', 'B');
    const { outcome, applied } = step(organizationStateSpec, m, 'restore', 'A');
    expect(outcome.verdict).toBe('open');
    expect(m.get('B')!.state).toBe('unknown');
    expect(applied!.follow.map((f) => f.label)).toEqual(['A']);
  });

  it('person reactivate returns the record to the link ID it left with, unless an open outcome moved it while it was out of matching', () => {
    const m = model(3);
    step(personStateSpec, m, 'deactivate', 'A');
    const left = m.get('A')!.group;
    const stayed = step(personStateSpec, m, 'reactivate', 'A').applied!;
    expect(stayed.sameLink).toEqual([expect.objectContaining({ label: 'A', group: left })]);
    expect(stayed.follow).toEqual([]);
    // Deactivated again, then moved by what the deployment showed (the others of an identity a merge retired a source from, open):
    step(personStateSpec, m, 'deactivate', 'A');
    m.get('A')!.group = m.get('B')!.group;
    const moved = step(personStateSpec, m, 'reactivate', 'A').applied!;
    expect(m.get('A')!.state).toBe('active');
    expect(moved.sameLink).toEqual([]);
    expect(moved.follow).toEqual([{ label: 'A', mustBeLive: true }]);
    expect(m.get('A')!.leftMatchingIn).toBeUndefined();
  });
});

describe('what the observation after a step reads (lookupScope)', () => {
  it('the records the step touched, their identities before and after, records merged into them and of unknown state; not the others', () => {
    const m = model(5);
    step(organizationStateSpec, m, 'link', 'A', 'B'); // A, B in L1
    m.lastLinkOf.set('B', 'L1');
    m.get('E')!.state = 'unknown';
    const applied = emptyApplied(['C']);
    const plan = { applied, step: { requirement: 'X' }, joined: { requirement: 'X' }, probes: [], before: new Map() };
    expect(lookupScope(m, plan).map((r) => r.label)).toEqual(['C', 'E']);
    applied.touched.add('B');
    expect(lookupScope(m, plan).map((r) => r.label)).toEqual(['A', 'B', 'C', 'E']);
    expect(lookupScope(m, { ...plan, full: true }).map((r: ModelRecord) => r.label)).toEqual(['A', 'B', 'C', 'D', 'E']);
  });
});
