/**
 * Transport variants: latency, and transient failures independent of the request. The seeds
 * name retryableError (organization-identity-api.md, Errors: failures are carried in the envelope
 * with "`retryableError` (boolean)") and leave status codes and rate limits open ("HTTP status
 * codes other than 200: not shown"; Limits: "Rate limits: not shown").
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InterceptInfo, ReferenceHook } from '../hooks.js';
import { ReferenceSettingError } from './errors.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A small seeded PRNG (mulberry32), so a transient run can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MAX_DELAY_MS = 60000;

/**
 * The per-request latency settings: the options when given, else REFERENCE_LATENCY_MS and
 * REFERENCE_JITTER_MS (integers, ms, 0 to 60000; unset: 0). @throws ReferenceSettingError naming the setting
 */
export function latencySettings(
  options: { latencyMs?: number; jitterMs?: number },
  env: Record<string, string | undefined>,
): { latencyMs: number; jitterMs: number } {
  const read = (given: number | undefined, name: string) => {
    const raw = given ?? (env[name] === undefined || env[name] === '' ? 0 : Number(env[name]));
    if (!Number.isInteger(raw) || raw < 0 || raw > MAX_DELAY_MS)
      throw new ReferenceSettingError(
        `${given !== undefined ? `startReference option ${name === 'REFERENCE_LATENCY_MS' ? 'latencyMs' : 'jitterMs'}` : name}: expected an integer number of ms from 0 to ${MAX_DELAY_MS}, got ${JSON.stringify(given ?? env[name])}`,
      );
    return raw;
  };
  return { latencyMs: read(options.latencyMs, 'REFERENCE_LATENCY_MS'), jitterMs: read(options.jitterMs, 'REFERENCE_JITTER_MS') };
}

/** Every request waits `ms` plus up to `jitterMs` (uniform) before it is handled. */
export const latency = (ms: number, jitterMs = 0, random: () => number = Math.random): ReferenceHook[] => [
  {
    intercept: async () => {
      await sleep(ms + (jitterMs > 0 ? random() * jitterMs : 0));
      return false;
    },
  },
];

export const TRANSIENT_KINDS = ['http-503', 'retryable-200', 'retryable-500', 'reset'] as const;
export type TransientKind = (typeof TRANSIENT_KINDS)[number];

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const v = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        resolve(v && typeof v === 'object' && !Array.isArray(v) ? v : {});
      } catch {
        resolve({});
      }
    });
    req.on('error', () => resolve({}));
  });
}

async function fail(kind: TransientKind, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (kind === 'reset') {
    req.socket.destroy();
    return;
  }
  if (kind === 'http-503') {
    req.resume();
    res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
    return;
  }
  const request = await readJson(req);
  const text = JSON.stringify({
    auditId: request.auditId ?? null,
    trackingId: request.trackingId ?? null,
    success: false,
    message: 'temporarily unavailable, retry later',
    errors: ['temporarily unavailable, retry later'],
    warnings: [],
    retryableError: true,
    unparsedJson: null,
    content: null,
  });
  res
    .writeHead(kind === 'retryable-200' ? 200 : 500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    .end(text);
}

/**
 * transient: a share `rate` of requests (drawn independently of the request) fails before it is
 * handled, so nothing changes: HTTP 503, success=false with retryableError=true on HTTP 200 or
 * 500, or a reset connection.
 */
export function transient(rate: number, random: () => number = Math.random): ReferenceHook[] {
  return [
    {
      intercept: async ({ req, res }: InterceptInfo) => {
        if (random() >= rate) return false;
        await fail(TRANSIENT_KINDS[Math.floor(random() * TRANSIENT_KINDS.length)]!, req, res);
        return true;
      },
    },
  ];
}
