/**
 * The situations of the state tables, enumerated from the state engine (specs/state/situations.ts), and the walks'
 * plan over them (scenarios/shared/walk/plan.ts): the enumeration is canonical under renaming, reaches every row from
 * every state its row allows, and finds the multiplicities a hand-written list named (an identity of three, sources
 * merged in) without naming them; the plan covers every situation, is one plan per seed, keeps its most novel walks
 * under a budget, and its walks are paths of the graph.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AbstractRecord, type Scope, canonical } from '../specs/state/abstract-state.js';
import { situationKey } from '../specs/state/situation-key.js';
import { type SituationGraph, enumerate, universeRows } from '../specs/state/situations.js';
import { SERVICES } from '../specs/services.js';
import type { ServiceName } from '../specs/common/model.js';
import { dealWalks, planWalks } from '../scenarios/shared/walk/plan.js';

const SCOPE: Scope = { records: 3, sources: 2, sharedNativeIds: false, history: false, marks: false };
const WIDE: Scope = { ...SCOPE, sharedNativeIds: true };
const SERVICE_NAMES: ServiceName[] = ['organization', 'person', 'provider'];
const graphs = new Map<string, SituationGraph>();
const graph = (service: ServiceName, scope = SCOPE) => {
  const key = `${service} ${JSON.stringify(scope)}`;
  if (!graphs.has(key)) graphs.set(key, enumerate(SERVICES[service].stateSpec, scope));
  return graphs.get(key)!;
};

/** The records renamed: shuffled, sources swapped, identities and native IDs renumbered (retiredInto follows the labels). */
function renamed(recs: AbstractRecord[], order: number[], swapSources: boolean, shift: number): AbstractRecord[] {
  const names = new Map(recs.map((r, i) => [r.label, `R${order.indexOf(i)}`]));
  return order.map((i) => {
    const r = recs[i]!;
    return {
      ...r,
      label: names.get(r.label)!,
      ...(r.retiredInto ? { retiredInto: names.get(r.retiredInto) } : {}),
      source: swapSources ? 1 - r.source : r.source,
      nativeId: r.nativeId + shift,
      group: r.group + shift,
      ...(r.mergedGroup !== undefined ? { mergedGroup: r.mergedGroup + shift } : {}),
    };
  });
}

describe('the situations enumerated from the state engine', () => {
  it.each(SERVICE_NAMES)(
    '%s: a state and a situation keep their keys under any renaming of records and sources',
    (service) => {
      const g = graph(service, WIDE);
      const spec = SERVICES[service].stateSpec;
      const states = g.states.filter((_, i) => i % 7 === 0);
      fc.assert(
        fc.property(
          fc.constantFrom(...states.keys()),
          fc.shuffledSubarray([0, 1, 2], { minLength: 3, maxLength: 3 }),
          fc.boolean(),
          fc.integer({ min: 1, max: 50 }),
          (at, order, swap, shift) => {
            const s = g.states[at]!;
            const r = renamed(s.records, order, swap, shift);
            expect(canonical(r, WIDE).key).toBe(s.key);
            for (const e of g.edges[g.stateIndex.get(s.key)!]!) {
              const roles = e.step.roles.map((i) => order.indexOf(i));
              expect(situationKey(spec, r, { step: e.step.step, roles }, e.verdict, WIDE)).toBe(
                g.situations[e.situation]!.key,
              );
            }
          },
        ),
        { numRuns: 60, seed: 7 },
      );
    },
  );

  it.each(SERVICE_NAMES)(
    '%s: every row of the table is judged from some state, and allowed from each of its From states',
    (service) => {
      const g = graph(service);
      const spec = SERVICES[service].stateSpec;
      const allowedFrom = new Map<string, Set<string>>();
      for (const [at, edges] of g.edges.entries())
        for (const e of edges)
          if (e.verdict === 'allow')
            for (const i of e.step.roles)
              allowedFrom.set(
                e.step.step,
                (allowedFrom.get(e.step.step) ?? new Set()).add(g.states[at]!.records[i]!.state),
              );
      for (const row of universeRows(spec)) {
        expect(allowedFrom.has(row.step), `${row.step} is never allowed`).toBe(true);
        const from = row.table?.from;
        if (Array.isArray(from))
          for (const state of from) expect([...allowedFrom.get(row.step)!], row.step).toContain(state);
      }
    },
  );

  it.each(SERVICE_NAMES)(
    '%s: the walks meet identities of one, two and three records and sources merged in, unlisted',
    (service) => {
      const g = graph(service);
      const keys = g.situations.map((s) => s.key);
      // Three records: a merge or link of an identity of two with one of one at most; an unlink from an identity of three.
      const sizes = (step: string) =>
        step === 'unlink' ? ['2', '3+'] : step === 'hard delete' ? ['1', '2', '3+'] : ['1', '2'];
      for (const step of ['merge', 'link', 'unlink', 'hard delete'])
        for (const size of sizes(step))
          expect(
            keys.some((k) => k.startsWith(`${step} allow:`) && k.includes(`identity of ${size}`)),
            `${step}, an identity of ${size}`,
          ).toBe(true);
      expect(
        keys.some(
          (k) => k.startsWith('hard delete allow:') && /source active, identity of \d\+?, [12] merged in/.test(k),
        ),
      ).toBe(true);
    },
  );

  it('every state is reached from a starting state, and a retired record names a record of its state', () => {
    for (const service of SERVICE_NAMES) {
      const g = graph(service);
      const seen = new Set(g.starts);
      const queue = [...g.starts];
      while (queue.length)
        for (const e of g.edges[queue.shift()!]!) if (!seen.has(e.next)) seen.add(e.next).size && queue.push(e.next);
      expect(seen.size, service).toBe(g.states.length);
      for (const s of g.states)
        for (const r of s.records)
          if (r.state === 'retired') expect(s.records.some((x) => x.label === r.retiredInto && x !== r)).toBe(true);
    }
  });

  it('a scope of one source holds fewer situations than two, and shared native IDs more', () => {
    for (const service of SERVICE_NAMES) {
      const one = graph(service, { ...SCOPE, sources: 1 }).situations.length;
      expect(one).toBeLessThan(graph(service).situations.length);
      expect(graph(service).situations.length).toBeLessThan(graph(service, WIDE).situations.length);
    }
  });
});

describe('the walks planned over them', () => {
  it.each(SERVICE_NAMES)(
    '%s: the plan covers every situation, in walks of at most 12 steps that are paths of the graph',
    (service) => {
      const g = graph(service);
      const plan = planWalks(g, { seed: 1, walkSteps: 12 });
      expect(plan.covered.size).toBe(g.situations.length);
      for (const walk of plan.walks) {
        expect(walk.steps.length).toBeLessThanOrEqual(12);
        expect(g.starts).toContain(walk.start);
        let at = walk.start;
        for (const step of walk.steps) {
          expect(step.from).toBe(at);
          expect(g.edges[at]).toContainEqual(expect.objectContaining({ situation: step.situation, next: step.next }));
          at = step.next;
        }
      }
      // Few steps beyond one per situation: the greedy plan chains them.
      expect(plan.steps).toBeLessThan(1.6 * g.situations.length);
    },
  );

  it('one seed gives one plan; another seed may order ties otherwise, covering as much', () => {
    const g = graph('organization');
    const a = planWalks(g, { seed: 5, walkSteps: 12 });
    expect(planWalks(g, { seed: 5, walkSteps: 12 })).toEqual(a);
    const b = planWalks(g, { seed: 6, walkSteps: 12 });
    expect(b.covered.size).toBe(a.covered.size);
    expect(JSON.stringify(b.walks)).not.toBe(JSON.stringify(a.walks));
  });

  it('under a budget of 40 steps the plan reaches every step and verdict first (most novel first)', () => {
    for (const service of SERVICE_NAMES) {
      const g = graph(service);
      const plan = planWalks(g, { seed: 1, walkSteps: 10, stepBudget: 40 });
      expect(plan.steps).toBeLessThanOrEqual(40);
      const tiers = new Set([...plan.covered].map((s) => g.situations[s]!.tiers[0]));
      expect(tiers.size, service).toBe(g.tiers[0].length);
    }
  });

  it('a plan of at most n walks covers exactly what its walks step through (nothing of a walk left out)', () => {
    for (const service of SERVICE_NAMES) {
      const g = graph(service);
      const plan = planWalks(g, { seed: 3, walkSteps: 8, stepBudget: 24, maxWalks: 2 });
      expect(plan.walks.length, service).toBeLessThanOrEqual(2);
      expect(plan.covered, service).toEqual(new Set(plan.walks.flatMap((w) => w.steps.map((e) => e.situation))));
    }
  });

  it('situations covered already (by the tours) are not aimed at, and the walks dealt into parts keep every walk', () => {
    const g = graph('person');
    const covered = [0, 1, 2, 3, 4];
    const plan = planWalks(g, { seed: 1, walkSteps: 12, covered });
    expect(plan.covered.size + covered.length).toBe(g.situations.length);
    const parts = dealWalks(plan, 4);
    expect(parts.flat()).toHaveLength(plan.walks.length);
    const steps = parts.map((p) => p.reduce((n, w) => n + w.steps.length, 0));
    expect(Math.max(...steps) - Math.min(...steps)).toBeLessThanOrEqual(13);
  });
});
