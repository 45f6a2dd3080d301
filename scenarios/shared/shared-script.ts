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

interface Made<T> {
  runner: Check;
  value?: T;
  passed: boolean;
}

const made = new WeakMap<object, Map<string, Promise<Made<unknown>>>>();

/**
 * `make` run once per run and `name` on a check of its own (runnerFor), whichever check asks first; what it cost the
 * deployment is counted once, with that check. Resolves with the runner, whether `make` passed, and its value.
 */
async function once<T>(
  t: Check,
  name: string,
  requirements: readonly string[],
  make: (runner: Check) => Promise<T>,
  seed: number,
): Promise<Made<T>> {
  let byName = made.get(t.run);
  if (!byName) made.set(t.run, (byName = new Map()));
  let outcome = byName.get(name) as Promise<Made<T>> | undefined;
  const first = !outcome;
  if (!outcome) {
    const runner = runnerFor(t, name, requirements, seed);
    outcome = make(runner).then(
      (value) => ({ runner, value, passed: true }),
      () => ({ runner, passed: false }),
    );
    byName.set(name, outcome);
  }
  const done = await outcome;
  if (first) t.requestsSent += done.runner.requestsSent;
  return done;
}

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
  const name = `${t.service}/shared-script/${key}`;
  const { runner, passed } = await once(t, name, requirements, (r) => body(r, requirements), seed);
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
  const { runner, value, passed } = await once(t, `${t.service}/shared-read/${key}`, requirements, make, seed);
  if (!passed) return make(t);
  t.exchanges.push(...runner.exchanges);
  return value as T;
}

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
