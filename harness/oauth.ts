/**
 * OAuth2 client credentials (RFC 6749, section 4.4) for a service whose bearer token comes from a token endpoint (the
 * seeds: "How the token is obtained, its lifetime and its scopes: not shown"; the settings <PREFIX>_OAUTH_*,
 * harness/config.ts). A small client over undici, so that the token request goes the way the service's requests go (the
 * same proxy and TLS settings).
 *
 * One token per service for the whole run: the threads of a run share it through memory (`sharedTokenCell`, handed out
 * by the global setup), so it is fetched once, by whichever thread needs it first while the others wait; it is fetched
 * again REFRESH_BEFORE_MS (or a tenth of its lifetime, when shorter) before it expires, and once when the service
 * answers HTTP 401 to it. The client secret and every token are registered secrets (harness/redact.ts): masked wherever
 * they could appear. The token endpoint's exchanges are never recorded.
 */
import { type Dispatcher, request } from 'undici';
import { registerSecret } from './redact.js';

export interface OAuthSettings {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
  audience?: string;
}

/**
 * What reports show of an OAuth2 client (never its secret): the token endpoint's host, the client ID, scope, audience.
 */
export interface OAuthShown {
  tokenHost: string;
  clientId: string;
  scope?: string;
  audience?: string;
}

/** An OAuth2 client as reports show it: no secret, and of the token URL only its host (no path, query or user info). */
export function oauthShown(o: OAuthSettings): OAuthShown {
  return {
    tokenHost: new URL(o.tokenUrl).host,
    clientId: o.clientId,
    ...(o.scope ? { scope: o.scope } : {}),
    ...(o.audience ? { audience: o.audience } : {}),
  };
}

/** The token endpoint said no, or could not be reached: what it said, never a secret. */
export class TokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenError';
  }
}

/** How long before its expiry a token is fetched anew, at most (ms). */
export const REFRESH_BEFORE_MS = 60_000;
/** Lifetime assumed for a token whose reply gives no expires_in (ms). */
export const DEFAULT_LIFETIME_MS = 300_000;
/** Longest token a shared cell holds (bytes). */
const MAX_TOKEN_BYTES = 16_384;

// Shared cell: Int32 [lock, length] then Float64 [expiresAt, fetchedAt], then the token's bytes.
const LOCK = 0;
const LENGTH = 1;
const TIMES_AT = 8;
const BYTES_AT = 24;

/** Memory for one service's token, shared by a run's threads (the same buffer in each). */
export function sharedTokenCell(): SharedArrayBuffer {
  return new SharedArrayBuffer(BYTES_AT + MAX_TOKEN_BYTES);
}

interface Held {
  token: string;
  expiresAt: number;
  fetchedAt: number;
}

export class TokenSource {
  private readonly ints: Int32Array;
  private readonly times: Float64Array;
  private readonly bytes: Uint8Array;
  /** Token fetches this source made (not those of other threads). */
  fetches = 0;

  /**
   * @param cell the run's shared cell for this service (default: one of this source's own)
   * @param dispatcher how to reach the token endpoint (the service's transport's)
   */
  constructor(
    readonly settings: OAuthSettings,
    private readonly options: { timeoutMs: number; dispatcher?: Dispatcher; now?: () => number },
    cell: SharedArrayBuffer = sharedTokenCell(),
  ) {
    this.ints = new Int32Array(cell, 0, 2);
    this.times = new Float64Array(cell, TIMES_AT, 2);
    this.bytes = new Uint8Array(cell, BYTES_AT);
    registerSecret(settings.clientSecret);
    registerSecret(`${settings.clientId}:${settings.clientSecret}`);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private read(): Held | undefined {
    const length = Atomics.load(this.ints, LENGTH);
    if (!length) return undefined;
    const token = Buffer.from(this.bytes.subarray(0, length)).toString('utf8');
    registerSecret(token);
    return { token, expiresAt: this.times[0]!, fetchedAt: this.times[1]! };
  }

  /** True while a held token may still be sent: not within its refresh margin of expiry. */
  private fresh(h: Held | undefined): h is Held {
    if (!h) return false;
    const margin = Math.min(REFRESH_BEFORE_MS, (h.expiresAt - h.fetchedAt) / 10);
    return this.now() < h.expiresAt - margin;
  }

  /**
   * A token to send: the run's current one, or a new one when there is none or it is about to expire.
   * @throws TokenError when the token endpoint refuses or cannot be reached
   */
  async token(): Promise<string> {
    const held = this.read();
    if (this.fresh(held)) return held.token;
    return this.fetchOnce((h) => this.fresh(h));
  }

  /**
   * A new token after the service refused `refused` with HTTP 401: fetched unless another thread already replaced it.
   * @throws TokenError as token()
   */
  async renew(refused: string): Promise<string> {
    return this.fetchOnce((h) => h !== undefined && h.token !== refused);
  }

  /** Fetches a token unless, once this thread holds the lock, `good` says the held one will do. */
  private async fetchOnce(good: (h: Held | undefined) => boolean): Promise<string> {
    await this.lock();
    try {
      const held = this.read();
      if (good(held)) return held!.token;
      const got = await this.fetch();
      const encoded = Buffer.from(got.token, 'utf8');
      if (encoded.length > this.bytes.length)
        throw new TokenError(
          `the token endpoint gave a token of ${encoded.length} bytes, more than ${this.bytes.length}`,
        );
      this.bytes.set(encoded);
      this.times[0] = got.expiresAt;
      this.times[1] = this.now();
      Atomics.store(this.ints, LENGTH, encoded.length);
      return got.token;
    } finally {
      this.unlock();
    }
  }

  private async lock(): Promise<void> {
    for (;;) {
      if (Atomics.compareExchange(this.ints, LOCK, 0, 1) === 0) return;
      const waiting = Atomics.waitAsync(this.ints, LOCK, 1, 250);
      let timer: NodeJS.Timeout | undefined;
      // A pending waitAsync does not keep the thread's event loop alive; the timer does.
      if (waiting.async) await Promise.race([waiting.value, new Promise((r) => (timer = setTimeout(r, 250)))]);
      clearTimeout(timer);
    }
  }

  private unlock(): void {
    Atomics.store(this.ints, LOCK, 0);
    Atomics.notify(this.ints, LOCK);
  }

  /** One client-credentials request (client_secret_basic; scope and audience when set). */
  private async fetch(): Promise<{ token: string; expiresAt: number }> {
    const s = this.settings;
    this.fetches++;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (s.scope) form.set('scope', s.scope);
    if (s.audience) form.set('audience', s.audience);
    const basic = Buffer.from(`${encodeURIComponent(s.clientId)}:${encodeURIComponent(s.clientSecret)}`).toString(
      'base64',
    );
    let status: number;
    let text: string;
    try {
      const res = await request(s.tokenUrl, {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (e) {
      const err = e as Error & { code?: string };
      throw new TokenError(
        `the token endpoint ${s.tokenUrl} could not be reached (${err.code ?? err.name}: ${err.message})`,
      );
    }
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = undefined;
    }
    const token = body?.access_token;
    if (status !== 200 || typeof token !== 'string' || !token) {
      const why =
        typeof body?.error === 'string'
          ? `${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}`
          : 'no access_token';
      throw new TokenError(`the token endpoint ${s.tokenUrl} answered HTTP ${status} (${why})`);
    }
    registerSecret(token);
    const seconds = Number(body?.expires_in);
    return {
      token,
      expiresAt: this.now() + (Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_LIFETIME_MS),
    };
  }
}
