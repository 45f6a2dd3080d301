/**
 * Raw calls to an embedded reference for the reference's own self-tests: one envelope per call,
 * the service's credentials (bearer for organization and person, basic for provider, or as
 * given), the status, the parsed body (or the text), and the time the call took.
 */
import { request } from 'undici';
import type { ServiceName } from '../../specs/common/model.js';
import { SERVICES, operation } from '../../specs/services.js';
import { type ReferenceOptions, type RunningReference, startReference } from '../../reference/server.js';

export interface RawReply {
  status: number;
  body: Record<string, any> | undefined;
  text: string;
  ms: number;
  /** The reply's headers (absent when the connection failed). */
  headers?: Record<string, string | string[] | undefined>;
  /** Set when the connection failed (reset) instead of answering. */
  error?: string;
}

export interface ReferenceCaller {
  ref: RunningReference;
  call(
    op: string,
    content: unknown,
    options?: { service?: ServiceName; envelope?: Record<string, unknown>; auth?: 'bearer' | 'basic' },
  ): Promise<RawReply>;
  stop(): Promise<void>;
}

/** A new source reference on a test source name. */
let n = 0;
export const newSource = () => ({
  name: 'cf_test_a',
  id: `cf-variant-${process.pid}-${Date.now().toString(36)}-${n++}`,
});

export async function referenceWith(options: ReferenceOptions): Promise<ReferenceCaller> {
  const ref = await startReference(options);
  return {
    ref,
    async call(op, content, o = {}) {
      const service = o.service ?? 'organization';
      const spec = SERVICES[service];
      const scheme = o.auth ?? spec.authSchemes[0];
      const authorization =
        scheme === 'bearer'
          ? `Bearer ${ref.token}`
          : `Basic ${Buffer.from(`${ref.auth.username}:${ref.auth.password}`).toString('base64')}`;
      const url = `${ref.baseUrlOf(service)}${spec.servicePath}${operation(service, op).path}`;
      const started = Date.now();
      try {
        const res = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization },
          body: JSON.stringify({
            auditId: 'audit-1',
            trackingId: 'track-1',
            ...(service === 'person' ? { customerId: 'reference-customer' } : {}),
            content,
            ...o.envelope,
          }),
        });
        const text = await res.body.text();
        let body: Record<string, any> | undefined;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        return { status: res.statusCode, body, text, ms: Date.now() - started, headers: res.headers };
      } catch (e) {
        return {
          status: 0,
          body: undefined,
          text: '',
          ms: Date.now() - started,
          error: (e as Error & { code?: string }).code ?? (e as Error).message,
        };
      }
    },
    stop: () => ref.stop(),
  };
}
