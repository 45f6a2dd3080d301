/**
 * Set-ups several checks share, made once per run, service and key on a check of their own (a Faker of its own: run
 * seed + key, so a replay of any of them posts the same identities).
 *
 * sharedScript: the script of a state-table row that its reply check and its effect check both run. Both post the same
 * records and send the same step; one judges the reply members the row names, the other what is observable afterwards.
 * The shared run judges both requirements at the step; when it passes, every one of them passes with its exchanges,
 * lags and its own requirements' categories. When it does not pass (a finding, could not judge, a skip), each check
 * runs the script alone, judging its own requirement, exactly as it would without sharing: a failure is never reported
 * from a run that judged another requirement first.
 *
 * sharedRead: what several checks read and none changes (the reply of a posted identity).
 *
 * Source: the service's state table (specs/<service>/state-spec.ts), its reply and effect requirements.
 */
import { seededFaker, testSeed } from '../../generators/seed.js';
import { Check, catalogueOf } from '../../harness/check.js';
import { runInfo } from '../../harness/targets.js';
import { categoryKey } from '../../specs/common/categories.js';

/** The script's body: it judges `judge` at the step it is about (the shared run: every requirement of the pair). */
export type SharedBody = (t: Check, judge: readonly string[]) => Promise<void>;

interface Outcome {
  runner: Check;
  passed: boolean;
}

const runs = new WeakMap<object, Map<string, Promise<Outcome>>>();

/**
 * Runs `body` once per run, service and `key` for the checks that cite `requirements`, and settles this check by it
 * (see the file comment). `seed`: the run seed (default: the run's).
 * @throws what `body` throws when it runs alone for this check
 */
export async function sharedScript(
  t: Check,
  key: string,
  requirements: readonly string[],
  body: SharedBody,
  seed: number = runInfo().seed,
): Promise<void> {
  let byKey = runs.get(t.run);
  if (!byKey) runs.set(t.run, (byKey = new Map()));
  const name = `${t.service}/shared-script/${key}`;
  let outcome = byKey.get(name);
  const first = !outcome;
  if (!outcome) {
    const runner = runnerFor(t, name, requirements, seed);
    outcome = body(runner, requirements).then(
      () => ({ runner, passed: true }),
      () => ({ runner, passed: false }),
    );
    byKey.set(name, outcome);
  }
  const { runner, passed } = await outcome;
  // What the shared run cost the deployment is counted once, with the check that started it.
  if (first) t.requestsSent += runner.requestsSent;
  if (!passed) return body(t, t.verifies);
  t.exchanges.push(...runner.exchanges);
  t.asideLines.push(...runner.asideLines);
  t.lags.push(...runner.lags);
  for (const note of runner.notes) t.note(note);
  for (const c of runner.categories)
    if (t.verifies.some((id) => c.startsWith(categoryKey(id, '')))) t.categories.add(c);
}

/**
 * What several checks read and none changes (a posted identity's reply), made once per run, service and `key` on a
 * check of its own (see runnerFor); each check takes its exchanges, the first to ask its requests. When making it
 * fails, each check makes its own, as it would without sharing, so a failure is reported by every check that needed it,
 * from its own exchanges.
 * @throws what `make` throws when it runs for this check alone
 */
export async function sharedRead<T>(
  t: Check,
  key: string,
  requirements: readonly string[],
  make: (t: Check) => Promise<T>,
  seed: number = runInfo().seed,
): Promise<T> {
  let byKey = reads.get(t.run);
  if (!byKey) reads.set(t.run, (byKey = new Map()));
  const name = `${t.service}/shared-read/${key}`;
  let made = byKey.get(name) as Promise<{ runner: Check; value?: T; passed: boolean }> | undefined;
  const first = !made;
  if (!made) {
    const runner = runnerFor(t, name, requirements, seed);
    made = make(runner).then(
      (value) => ({ runner, value, passed: true }),
      () => ({ runner, passed: false }),
    );
    byKey.set(name, made);
  }
  const { runner, value, passed } = await made;
  if (first) t.requestsSent += runner.requestsSent;
  if (!passed) return make(t);
  t.exchanges.push(...runner.exchanges);
  return value as T;
}

const reads = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * The check the shared run happens on: the pair's requirements, a Faker of the script's own, the starting check's
 * limits.
 */
function runnerFor(t: Check, name: string, requirements: readonly string[], seed: number): Check {
  const runner = new Check(
    t.service,
    [...requirements],
    seededFaker(testSeed(seed, name)),
    t.client,
    t.profile,
    t.run,
    t.file,
  );
  const catalogue = catalogueOf(t.service);
  runner.disabled = new Set(
    requirements.filter((id) => t.profile.disabledExpectations.includes(id) && catalogue.get(id)?.level === 'EXPECT'),
  );
  runner.sendBy = t.sendBy;
  runner.priority = t.priority;
  if (t.signal) runner.signal = t.signal;
  return runner;
}
