/**
 * Transport variants: latency, slow tails, transient failures independent of the request, restarts (every request fails
 * for a few seconds), a gateway that throttles, and a deployment that stops answering (gone). The seeds name
 * retryableError (organization-identity-api.md, Errors: failures are carried in the envelope with "`retryableError`
 * (boolean)") and leave status codes and rate limits open
 * ("HTTP status codes other than 200: not shown"; Limits: "Rate limits: not shown").
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InterceptInfo, ReferenceHook } from '../hooks.js';
import { ReferenceSettingError } from './errors.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const MAX_DELAY_MS = 60000;

/**
 * The per-request latency settings: the options when given, else REFERENCE_LATENCY_MS and REFERENCE_JITTER_MS
 * (integers, ms, 0 to 60000; unset: 0). @throws ReferenceSettingError naming the setting
 */
export function latencySettings(
  options: { latencyMs?: number; jitterMs?: number },
  env: Record<string, string | undefined>,
): { latencyMs: number; jitterMs: number } {
  const read = (given: number | undefined, name: string) => {
    const raw = given ?? (env[name] === undefined || env[name] === '' ? 0 : Number(env[name]));
    const option = `startReference option ${name === 'REFERENCE_LATENCY_MS' ? 'latencyMs' : 'jitterMs'}`;
    if (!Number.isInteger(raw) || raw < 0 || raw > MAX_DELAY_MS)
      throw new ReferenceSettingError(
        `${given !== undefined ? option : name}: ` +
          `expected an integer number of ms from 0 to ${MAX_DELAY_MS}, got ${JSON.stringify(given ?? env[name])}`,
      );
    return raw;
  };
  return {
    latencyMs: read(options.latencyMs, 'REFERENCE_LATENCY_MS'),
    jitterMs: read(options.jitterMs, 'REFERENCE_JITTER_MS'),
  };
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
/** The failures that say the request was not processed: HTTP 503, or success=false with retryableError=true. */
export const NOT_PROCESSED_KINDS: readonly TransientKind[] = ['http-503', 'retryable-200', 'retryable-500'];

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
    .writeHead(kind === 'retryable-200' ? 200 : 500, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    })
    .end(text);
}

/**
 * transient: a share `rate` of requests (drawn independently of the request) fails before it is handled, so nothing
 * changes, each as one of `kinds` (default: HTTP 503, success=false with retryableError=true on HTTP 200 or 500;
 * `reset` closes the connection without a reply).
 */
export function transient(
  rate: number,
  random: () => number = Math.random,
  kinds: readonly TransientKind[] = NOT_PROCESSED_KINDS,
): ReferenceHook[] {
  return [
    {
      intercept: async ({ req, res }: InterceptInfo) => {
        if (random() >= rate) return false;
        await fail(kinds[Math.floor(random() * kinds.length)]!, req, res);
        return true;
      },
    },
  ];
}

/** How a throttling gateway answers a request over its limit. */
export interface ThrottleAnswer {
  /** The Retry-After header's value in seconds; absent: no Retry-After. */
  retryAfterSeconds?: number;
}

/**
 * throttled: a gateway in front of each service lets through at most `perSecond` requests in any one-second window
 * (counted per service, sliding) and answers the others HTTP 429, with `Retry-After: 1` unless told otherwise, before
 * the request reaches the service (nothing changes).
 */
export function throttled(
  perSecond: number,
  answer: ThrottleAnswer = { retryAfterSeconds: 1 },
  now: () => number = Date.now,
): ReferenceHook[] {
  const accepted = new Map<string, number[]>();
  return [
    {
      intercept: ({ service, req, res }: InterceptInfo) => {
        const t = now();
        const times = accepted.get(service) ?? [];
        while (times.length && t - times[0]! >= 1000) times.shift();
        accepted.set(service, times);
        if (times.length < perSecond) {
          times.push(t);
          return false;
        }
        req.resume();
        const text = 'Too Many Requests';
        res
          .writeHead(429, {
            'content-type': 'text/plain',
            'content-length': Buffer.byteLength(text),
            ...(answer.retryAfterSeconds !== undefined ? { 'retry-after': String(answer.retryAfterSeconds) } : {}),
          })
          .end(text);
        return true;
      },
    },
  ];
}

/**
 * slow-tail: a share `share` of requests (drawn independently of the request) waits `delayMs` plus up to half as much
 * again before it is handled, the long tail of a loaded deployment.
 */
export const slowTail = (share: number, delayMs: number, random: () => number = Math.random): ReferenceHook[] => [
  {
    intercept: async () => {
      if (random() < share) await sleep(delayMs * (1 + random() / 2));
      return false;
    },
  },
];

/**
 * restarts: each service restarts now and then. From a drawn moment on, every request to it is answered HTTP 503
 * without Retry-After for `downMs`, before it reaches the service (nothing changes). The moments are drawn per service:
 * the gaps between restarts are exponential with mean `meanGapMs` (at least `downMs`), counted from the service's first
 * request.
 */
export function restarts(
  downMs: number,
  meanGapMs: number,
  random: () => number = Math.random,
  now: () => number = Date.now,
): ReferenceHook[] {
  const windows = new Map<string, { from: number; until: number }>();
  const after = (t: number) => {
    const from = t + Math.max(downMs, -Math.log(1 - random()) * meanGapMs);
    return { from, until: from + downMs };
  };
  return [
    {
      intercept: ({ service, req, res }: InterceptInfo) => {
        const t = now();
        let w = windows.get(service) ?? after(t);
        while (t >= w.until) w = after(w.until);
        windows.set(service, w);
        if (t < w.from) return false;
        req.resume();
        const text = 'Service Unavailable (restarting)';
        res.writeHead(503, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) }).end(text);
        return true;
      },
    },
  ];
}

/**
 * gone: the deployment stops answering. Once the reference has taken `answered` requests (of any service), every later
 * request is left unanswered: its body is read, the connection stays open and no reply ever comes (a deployment that
 * went away behind its load balancer), before it reaches the service (nothing changes). Counted in requests, not time,
 * so that the cut falls mid-run however busy the machine is. The reference's stop closes the connections.
 */
export function gone(answered: number): ReferenceHook[] {
  let taken = 0;
  return [
    {
      intercept: ({ req }: InterceptInfo) => {
        if (++taken <= answered) return false;
        req.resume();
        return true;
      },
    },
  ];
}
