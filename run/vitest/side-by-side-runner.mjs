/**
 * The vitest runner of a conformance run: one test worker runs several scenario files side by side, instead of vitest's
 * one file after another. Against a distant deployment a file's checks mostly wait on the network, so files must
 * overlap; doing it inside one worker instead of one worker per file keeps one copy of the modules, compiled validators
 * and Faker locales instead of one per worker (docs/performance.md, item 23).
 *
 * How, in vitest 4.1's terms (both pinned by test/side-by-side-runner.test.ts):
 * - With `isolate: false` and one worker, vitest hands the worker all its files at once, and the worker calls
 *   startTests once per file, in order. A file's run goes through `runner.trace('run.spec', ...)`: this runner queues
 *   it there instead of running it.
 * - Once the batch's last file (the worker state's `ctx.files`) has been collected, the queued files run in the
 *   sequencer's order, as many at once as fit in `filesAtOnce × maxConcurrency` places for checks (`filesAtOnce`
 *   provided by vitest.config.ts). A file takes as many places as it can run checks at once: `maxConcurrency`, or fewer
 *   when it has fewer checks. A file of one long check (a walk: one chain of requests) thus takes one place, not a
 *   file's five, and the places it cannot use go to the next files (docs/performance.md, item 26). As its checks end, a
 *   file gives back the places its unfinished checks can no longer use (it keeps at least one until it ends), so a file
 *   of six checks whose last one runs alone holds one place, not five (item 29). Every file is collected before any
 *   check starts: vitest refuses to register a test while another test runs.
 * - Where the services' load is known (the global setup provides `serviceLoad`: per service, its requests in flight and
 *   those waiting for a place), files start 30 ms apart; a file of a saturated service (a whole in-flight bound of
 *   requests waiting) is passed over while another service's file may start (item 37).
 * - Files of the isolated areas (provided `isolatedAreas`: bad input, whose invalid records a lenient deployment may
 *   store) start only once every other file of their isolation group has ended, so no other check of a service that may
 *   share their store can see what they post. A file's group is its service folder's (`scenarios/<service>/`) in the
 *   provided `isolationGroups` (services reached at one service URL share one: run/vitest-plan.ts), else the
 *   folder itself; so the person service's bad input need not wait for the provider's walks.
 * - Checks per file stay at `maxConcurrency`; the worker-wide bound on checks (vitest creates it once, at the first
 *   file) is the number of places, `filesAtOnce × maxConcurrency`.
 * - If the worker state does not name the batch (a vitest that works otherwise), every file runs at once when handed
 *   over: one after another, as vitest does, slower but the same verdicts.
 *
 * Plain JavaScript: allure-vitest's reporter runs its own runner, which imports this one with Node's import, which
 * cannot load TypeScript. Files side by side share one thread's globals: allure-vitest's test plan
 * (ALLURE_TESTPLAN_PATH), which each file's setup sets and clears, would not hold (the suite uses none). With
 * --maxWorkers above 1 or --isolate, vitest hands each worker one file at a time, and this runner runs it at once
 * (run/vitest/global-setup.ts says so).
 */
import { TestRunner } from 'vitest';

/**
 * Key of the run's interrupt in this thread's globals: an AbortController that this runner aborts when vitest cancels
 * the run (an interrupt: run/interrupt.ts), and whose signal every check sends with (harness/interrupt.ts reads it
 * under the same key; the harness is loaded by vitest's module runner, this runner by Node's import, so a global is
 * what both see). vitest's own test signal is not enough: it aborts only some of the checks running side by side.
 */
const INTERRUPT = Symbol.for('identity-conformance/run-interrupt');

/**
 * Requests waiting for a place, in in-flight bounds of their service, from which a service counts as saturated: the
 * next file to start is then one of a service with room, if any waits.
 */
const SATURATED = 1;

/**
 * Time between two file starts where the services' load is known (ms): enough for a file's checks to queue their first
 * requests.
 */
const STAGGER_MS = 30;

/** Checks a collected file will run: its tests not skipped, todo or filtered out. */
function checksIn(task) {
  if (task.type === 'test') return task.mode === 'run' || task.mode === 'only' ? 1 : 0;
  return (task.tasks ?? []).reduce((n, t) => n + checksIn(t), 0);
}

/** Files of the worker's batch, in the order it runs them (vitest's worker state), or undefined. */
function batchFiles() {
  const files = globalThis.__vitest_worker__?.ctx?.files;
  return Array.isArray(files) && files.length ? files.map((f) => f.filepath) : undefined;
}

export default class SideBySideRunner extends TestRunner {
  /** @param {import('vitest').SerializedConfig} config */
  constructor(config) {
    super(config);
    /** @type {Array<{ path: string | undefined, run: () => Promise<unknown> }>} files collected and waiting to run */
    this.queued = [];
    /** @type {Map<string, number>} checks of each collected file, by path */
    this.checks = new Map();
    /**
     * @type {Map<string, { taken: number, unfinished: number, ended: Set<string>, shrink: () => void }>} places held by
     *   each running file
     */
    this.claims = new Map();
    /** @type {Map<string | undefined, boolean>} whether each file is isolated (read once a file: it never changes) */
    this.isolatedPaths = new Map();
    this.checksPerFile = config.maxConcurrency;
    const trace = this.trace;
    this.trace = (name, attributes, run) => {
      if (name !== 'run.spec') return trace(name, attributes, run);
      this.config.maxConcurrency = this.checksPerFile;
      const path = attributes?.['code.file.path'];
      this.queued.push({ path, run: () => trace(name, attributes, run) });
      const last = batchFiles()?.at(-1);
      if (last !== undefined && path !== last) return Promise.resolve();
      return this.runQueued();
    };
  }

  /**
   * True when a file belongs to an area that runs in a phase of its own, after all others (vitest.config.ts provides
   * the areas).
   */
  isolated(path) {
    let is = this.isolatedPaths.get(path);
    if (is === undefined) {
      const areas = this.injectValue('isolatedAreas');
      const area = path?.split(/[\\/]/).at(-1)?.split('.')[0];
      is = Array.isArray(areas) && areas.includes(area);
      this.isolatedPaths.set(path, is);
    }
    return is;
  }

  /** A scenario file's folder: its service (`scenarios/<service>/<area>.test.ts`). */
  serviceOf(path) {
    return path?.split(/[\\/]/).at(-2) ?? '';
  }

  /** Isolation group of a file: its service's in the provided `isolationGroups`, else its service. */
  groupOf(path) {
    const folder = this.serviceOf(path);
    const groups = this.injectValue('isolationGroups');
    return (groups && typeof groups === 'object' && groups[folder]) || folder;
  }

  /**
   * The services' load as the global setup provides it (`serviceLoad`): per service, its requests in flight and those
   * waiting for a place, read from shared counters; undefined without it. Read once: the counters are shared memory.
   */
  load() {
    if (this.loadCells === undefined) {
      const load = this.injectValue('serviceLoad');
      this.loadCells = load?.counters
        ? { services: load.services, cells: new Int32Array(load.counters), bound: load.bound }
        : null;
    }
    return this.loadCells ?? undefined;
  }

  /** A file's service's requests in flight and waiting for a place now, or undefined when the load is not known. */
  serviceLoadOf(path) {
    const load = this.load();
    const at = load?.services.indexOf(this.serviceOf(path));
    if (!load || at === undefined || at < 0) return undefined;
    return {
      inFlight: Atomics.load(load.cells, at),
      waiting: Atomics.load(load.cells, load.services.length + at),
      bound: load.bound,
    };
  }

  /**
   * True when the service of a file (its folder) has at least SATURATED × its in-flight bound of requests waiting for
   * a place now: more of its checks would only wait (the global setup provides `serviceLoad`; without it, never).
   */
  saturated(path) {
    const now = this.serviceLoadOf(path);
    return now !== undefined && now.waiting >= SATURATED * now.bound;
  }

  /** Scenario files run side by side (vitest.config.ts provides it; at least 1). */
  filesAtOnce() {
    const n = Number(this.injectValue('filesAtOnce'));
    return Number.isInteger(n) && n >= 1 ? n : 1;
  }

  onCollected(files) {
    for (const f of files) this.checks.set(f.filepath, checksIn(f));
    return super.onCollected?.(files);
  }

  /** Places a file takes: the checks it can run at once (at least 1; maxConcurrency when its count is unknown). */
  placesOf(path) {
    const checks = path === undefined ? undefined : this.checks.get(path);
    return Math.max(1, Math.min(this.checksPerFile, checks ?? this.checksPerFile));
  }

  onBeforeRunFiles(files) {
    // Read by vitest once, at the worker's first file, for its bound on checks across files.
    this.config.maxConcurrency = this.checksPerFile * this.filesAtOnce();
    return super.onBeforeRunFiles?.(files);
  }

  async runQueued() {
    // Files that send stored invalid input run last in their isolation group, once every other file of the group has
    // ended (run/vitest/file-order.ts ISOLATED_AREAS, run/vitest-plan.ts isolationGroups).
    const all = this.queued.splice(0);
    const waiting = [...all.filter((f) => !this.isolated(f.path)), ...all.filter((f) => this.isolated(f.path))];
    /** Files of each group that are not isolated and have not ended. */
    const mainLeft = new Map();
    for (const { path } of waiting)
      if (!this.isolated(path)) mainLeft.set(this.groupOf(path), (mainLeft.get(this.groupOf(path)) ?? 0) + 1);
    const places = this.filesAtOnce() * this.checksPerFile;
    let used = 0;
    let running = 0;
    let failure;
    await new Promise((allDone) => {
      // In the sequencer's order: the next file starts once its places are free (or nothing runs); an isolated file
      // whose group still has other files is passed over until they end, and so is, while a file of another service may
      // start, a file of a saturated service (its requests already wait for places of its in-flight bound: more checks
      // of it would only wait too). vitest's file run records its own failures; anything else thrown waits for the
      // other files, so that the batch never ends while a file still runs.
      /**
       * The next file to start (its index in `waiting`), or -1: the first that may start whose service is not
       * saturated, when its places are free (or nothing runs); when every service that has a file waiting is saturated,
       * none (a timer looks again) unless nothing runs.
       */
      const next = () => {
        const fits = (path) => running === 0 || used + this.placesOf(path) <= places;
        const { pick, first } = this.nextFileOf(waiting, mainLeft, fits);
        if (pick !== undefined) return pick;
        if (first >= 0 && running > 0 && !polling && this.load()) {
          polling = true;
          setTimeout(() => {
            polling = false;
            startMore();
          }, STAGGER_MS);
        }
        return running === 0 ? first : -1;
      };
      let polling = false;
      const startMore = () => {
        for (let i = next(); i >= 0; i = next()) {
          const file = waiting[i];
          const main = !this.isolated(file.path);
          const group = this.groupOf(file.path);
          waiting.splice(i, 1);
          const claim = this.claimPlaces(file.path, (n) => {
            used -= n;
            startMore();
          });
          used += claim.taken;
          running++;
          void file
            .run()
            .catch((e) => void (failure ??= { e }))
            .finally(() => {
              if (this.claims.get(file.path) === claim) this.claims.delete(file.path);
              used -= claim.taken;
              running--;
              if (main) mainLeft.set(group, mainLeft.get(group) - 1);
              startMore();
            });
          // Where the services' load is known, the next file starts a moment later, once this one's first requests are
          // queued and saturated() can see them.
          if (this.load()) {
            setTimeout(startMore, STAGGER_MS);
            break;
          }
        }
        if (waiting.length === 0 && running === 0) allDone();
      };
      startMore();
    });
    if (failure) throw failure.e;
  }

  /**
   * The file of `waiting` to start next, as `pick` (its index, -1 when its places are not free: `fits`), the first that
   * may start whose service is not saturated; undefined when every service that has a file waiting is saturated. An
   * isolated file whose group still has files in `mainLeft` may not start. `first`: the first that may (-1: none).
   */
  nextFileOf(waiting, mainLeft, fits) {
    let first = -1;
    for (let i = 0; i < waiting.length; i++) {
      const path = waiting[i].path;
      if (this.isolated(path) && (mainLeft.get(this.groupOf(path)) ?? 0) > 0) continue;
      if (first < 0) first = i;
      if (!this.saturated(path)) return { pick: fits(path) ? i : -1, first };
    }
    return { pick: undefined, first };
  }

  /**
   * The places a file starting now claims (placesOf), kept in `claims` until it ends. A file whose checks are ending
   * needs fewer places: it gives back (`giveBack`) what its unfinished checks cannot use.
   */
  claimPlaces(path, giveBack) {
    const claim = {
      taken: this.placesOf(path),
      unfinished: this.checks.get(path) ?? Number.POSITIVE_INFINITY,
      ended: new Set(),
    };
    claim.shrink = () => {
      const keep = Math.max(1, Math.min(claim.taken, claim.unfinished));
      if (keep >= claim.taken) return;
      const freed = claim.taken - keep;
      claim.taken = keep;
      giveBack(freed);
    };
    if (path !== undefined) this.claims.set(path, claim);
    return claim;
  }

  /**
   * A check's try has ended (passed, failed or skipped): its file may need a place less. Counted once per check: a
   * check retried (`--retry`) runs again within vitest's worker-wide bound on checks, which stays the number of places.
   */
  onTaskFinished(test) {
    const claim = this.claims.get(test.file?.filepath);
    if (claim && !claim.ended.has(test.id)) {
      claim.ended.add(test.id);
      claim.unfinished--;
      claim.shrink();
    }
    return super.onTaskFinished?.(test);
  }

  /**
   * The run is cancelled (an interrupt): every check's requests stop (the run's interrupt), and checks not started are
   * skipped (vitest).
   */
  cancel(reason) {
    globalThis[INTERRUPT] ??= new AbortController();
    globalThis[INTERRUPT].abort(reason);
    return super.cancel(reason);
  }

  onAfterRunFiles(files) {
    // A file still queued: the batch's last file runs it and ends the batch.
    if (this.queued.length) return;
    return super.onAfterRunFiles(files);
  }
}
