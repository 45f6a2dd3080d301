/**
 * The script a row's reply check and effect check share (scenarios/shared/shared-script.ts): run
 * once when it passes, each check taking its exchanges and its own requirements' categories; and,
 * when the shared run does not pass, each check settled by a run of its own that judges only its
 * requirement, so no check fails for a finding of the other's requirement.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededFaker } from '../generators/seed.js';
import { Check } from '../harness/check.js';
import type { ServiceClient } from '../harness/client.js';
import { loadProfile, resolveProfile } from '../harness/profile.js';
import type { Exchange } from '../harness/reply.js';
import { RunContext } from '../harness/run.js';
import { ConformanceFailure } from '../harness/verdict.js';
import { type SharedBody, sharedRead, sharedScript } from '../scenarios/shared/shared-script.js';

const profile = resolveProfile(loadProfile(undefined), false);
const [REPLY, EFFECT] = ['ORG-MERGE-REPLY', 'ORG-MERGE-EFFECT'];
const newRun = () => new RunContext('shared-script-test', mkdtempSync(join(tmpdir(), 'cf-shared-')));
const checkOf = (run: RunContext, id: string) =>
  new Check('organization', [id], seededFaker(1), {} as ServiceClient, profile, run);

/** A body that sends two requests and exercises a category per requirement; `broken` requirements fail when judged. */
function body(broken: string[] = []): SharedBody & { runs: Array<readonly string[]> } {
  const runs: Array<readonly string[]> = [];
  const f = async (t: Check, judge: readonly string[]) => {
    runs.push(judge);
    t.exchanges.push({ operation: 'mergeIdentities' } as Exchange);
    t.requestsSent += 2;
    for (const id of judge) t.exercised(id, `${id} category`);
    const failing = judge.filter((id) => broken.includes(id));
    if (failing.length) throw new ConformanceFailure(failing, `${failing.join(', ')} broken`);
  };
  return Object.assign(f, { runs });
}

describe('sharedScript', () => {
  it('runs a passing script once for both checks; each takes its exchanges and its own categories', async () => {
    const run = newRun();
    const b = body();
    const [reply, effect] = [checkOf(run, REPLY), checkOf(run, EFFECT)];
    await Promise.all([reply, effect].map((t) => sharedScript(t, 'merge', [REPLY, EFFECT], b, 7)));
    expect(b.runs).toEqual([[REPLY, EFFECT]]);
    expect([reply.exchanges.length, effect.exchanges.length]).toEqual([1, 1]);
    expect(reply.requestsSent + effect.requestsSent).toBe(2);
    expect([...reply.categories]).toEqual([`${REPLY}#${REPLY} category`]);
    expect([...effect.categories]).toEqual([`${EFFECT}#${EFFECT} category`]);
  });

  it('a shared run that fails settles each check by a run of its own: only the broken requirement fails', async () => {
    const run = newRun();
    const b = body([EFFECT]);
    const [reply, effect] = [checkOf(run, REPLY), checkOf(run, EFFECT)];
    const results = await Promise.allSettled(
      [reply, effect].map((t) => sharedScript(t, 'merge', [REPLY, EFFECT], b, 7)),
    );
    expect(results[0]!.status).toBe('fulfilled');
    expect(results[1]!.status).toBe('rejected');
    expect(((results[1] as PromiseRejectedResult).reason as ConformanceFailure).requirements).toEqual([EFFECT]);
    expect(b.runs).toEqual([[REPLY, EFFECT], [REPLY], [EFFECT]]);
    // The check whose run passed shows only its own exchange, not the failing shared run's.
    expect(reply.exchanges.length).toBe(1);
  });

  it('keeps one shared run per run and key', async () => {
    const b = body();
    for (const run of [newRun(), newRun()]) await sharedScript(checkOf(run, REPLY), 'merge', [REPLY, EFFECT], b, 7);
    await sharedScript(checkOf(newRun(), REPLY), 'unmerge', [REPLY, EFFECT], b, 7);
    expect(b.runs.length).toBe(3);
  });
});

describe('sharedRead', () => {
  it('makes a value once for the checks that read it; each takes its exchanges, the first its requests', async () => {
    const run = newRun();
    let made = 0;
    const make = async (t: Check) => {
      made++;
      t.exchanges.push({ operation: 'nativeIdQuery' } as Exchange);
      t.requestsSent += 2;
      return 'the reply';
    };
    const [x, y] = [checkOf(run, REPLY), checkOf(run, EFFECT)];
    expect(await Promise.all([x, y].map((t) => sharedRead(t, 'identity', [REPLY, EFFECT], make, 7)))).toEqual([
      'the reply',
      'the reply',
    ]);
    expect(made).toBe(1);
    expect([x.exchanges.length, y.exchanges.length, x.requestsSent + y.requestsSent]).toEqual([1, 1, 2]);
  });

  it('a value that could not be made is made by each check alone, so each reports its own failure', async () => {
    const run = newRun();
    const makers: Check[] = [];
    const make = async (t: Check) => {
      makers.push(t);
      throw new Error(`not made for ${t.verifies.join(',')}`);
    };
    const [x, y] = [checkOf(run, REPLY), checkOf(run, EFFECT)];
    const results = await Promise.allSettled([x, y].map((t) => sharedRead(t, 'identity', [REPLY, EFFECT], make, 7)));
    expect(results.map((r) => (r as PromiseRejectedResult).reason.message)).toEqual([
      `not made for ${REPLY}`,
      `not made for ${EFFECT}`,
    ]);
    expect(makers.slice(1)).toEqual([x, y]);
  });
});
