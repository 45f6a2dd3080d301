/**
 * Where the test worker's CPU time goes, from a V8 CPU profile of it (`.cpuprofile`, written by `node --cpu-prof`; `npm
 * run bench:latency -- --profile` has vitest start the worker with it): each sample's time goes to the part of the
 * first frame, from the sampled function toward the root, that one of PARTS claims. The four "reply" parts are what the
 * suite does with each reply (parsing, validation against the contract, redaction, recording of the exchange); the
 * others say where the rest goes. A profile samples (1 ms apart by default): the figures are estimates, and the
 * profiler's own cost inflates them by a few per cent.
 */

/** One frame of a profile node (V8's Runtime.CallFrame, the members read here). */
export interface CallFrame {
  functionName: string;
  url: string;
}

/** A V8 CPU profile as `--cpu-prof` writes it (the members read here). */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>;
  samples: number[];
  /** µs between consecutive samples; the time of sample i is timeDeltas[i + 1]. */
  timeDeltas: number[];
}

/** The parts, in the order a frame is tried against them. */
export const PARTS: ReadonlyArray<readonly [string, (f: CallFrame) => boolean]> = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  [
    'reply: validation',
    (f) =>
      /^(violations|contentViolations|envelopeViolations|validate\d+)$/.test(f.functionName) ||
      /validator-cache|\/ajv(-formats)?\//.test(f.url),
  ],
  ['reply: redaction', (f) => /harness\/(redact-foreign|foreign-values|redact)\.ts/.test(f.url)],
  ['reply: recording', (f) => /harness\/(record|exchange-file|allure)\.ts|allure-/.test(f.url)],
  [
    'module loading',
    (f) =>
      /compileSourceTextModule|wrapSafe|compileForInternalLoader|_runInlinedModule|module_job|esm\/loader|cjs\/loader/.test(
        `${f.functionName} ${f.url}`,
      ),
  ],
  ['HTTP client (undici)', (f) => /node_modules\/undici\//.test(f.url)],
  // The transport's attempt reads the reply's text and parses it (JSON.parse runs in its frame).
  ['reply: parsing', (f) => f.functionName === 'once' && /harness\/transport\.ts/.test(f.url)],
  [
    'client, transport, guard',
    (f) =>
      /harness\/(transport|client|shared-limit|pacing|guard|reply|check|register|run)\.ts|node_modules\/(p-queue|p-retry|cockatiel)\//.test(
        f.url,
      ),
  ],
  ['generators (Faker, fast-check)', (f) => /node_modules\/(@faker-js|fast-check)\/|\/generators\//.test(f.url)],
  ['checks (scenarios, specs)', (f) => /\/(scenarios|specs)\//.test(f.url)],
  ['vitest', (f) => /node_modules\/(vitest|@vitest)\/|side-by-side-runner/.test(f.url)],
];

/** The parts of a reply's handling (PARTS' "reply: ..."), in the order a reply goes through them. */
export const REPLY_PARTS = ['reply: parsing', 'reply: validation', 'reply: redaction', 'reply: recording'];

/**
 * Milliseconds of the profile per part (PARTS' names, and 'other' for what none claims), idle included under 'idle'.
 */
export function profileParts(profile: CpuProfile): Record<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOf = new Map<number, string>();
  const part = (id: number): string => {
    let known = partOf.get(id);
    if (known) return known;
    known = 'other';
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!.callFrame;
      const hit = PARTS.find(([, claims]) => claims(frame));
      if (hit) {
        known = hit[0];
        break;
      }
    }
    partOf.set(id, known);
    return known;
  };
  const ms: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const name = part(id);
    ms[name] = (ms[name] ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000;
  });
  return ms;
}
