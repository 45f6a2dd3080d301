/**
 * Preflight: before any check runs, one cheap read-only request per configured service (identityIdQuery of a link ID
 * that cannot exist). The run stops with one clear message when a service cannot be reached or rejects the credentials,
 * instead of hundreds of failing checks. Any other reply (found, not found, a validation failure) means the service is
 * there. A transient reply (503, retryableError, a connection refused) is retried as the run's requests are, within
 * PREFLIGHT_RETRY_BUDGET_MS (at most CONFORMANCE_RETRY_BUDGET_MS), so a briefly unavailable deployment is not called
 * unreachable and an unreachable one is told within seconds.
 *
 * A service that answered is asked the same once more, on the connection the first request opened when the deployment
 * keeps it alive: that reply's time is the deployment's round trip (none when it was retried or transient), which
 * decides how many scenario files overlap their waits (harness/config.ts filesAtOnceFor).
 *
 * Exit code 3 from `npm run conformance` (run/cli/conformance-prepare.ts).
 */
import type { ServiceName } from '../specs/common/model.js';
import { type Reply, ServiceClient } from '../harness/client.js';
import { isTransient } from '../harness/reply.js';
import { type ServiceTarget, proxyFor, shownProxy } from '../harness/service-settings.js';
import type { Profile } from '../harness/profile.js';
import { RunContext } from '../harness/run.js';
import { credentialSettings } from '../harness/setting-names.js';

export interface PreflightProblem {
  service: ServiceName;
  url: string;
  kind: 'unreachable' | 'credentials rejected' | 'not an identity service' | 'proxy refused';
  detail: string;
  /** The settings that gave the credentials the service rejected (harness/setting-names.ts credentialSettings). */
  credentials?: string[];
  /** Set when what could not be reached is the OAuth2 token endpoint, not the service. */
  hint?: 'token endpoint';
  /** The proxy the request went through, shown without its credentials, and the variables that set it. */
  proxy?: { url: string; setting: string; noProxySetting: string };
}

/** Longest a preflight request may take (ms), capped by the run's timeout. */
export const PREFLIGHT_TIMEOUT_MS = 5000;
/** Longest a preflight request is retried for (ms), capped by the run's retry budget. */
export const PREFLIGHT_RETRY_BUDGET_MS = 3000;

export interface PreflightResult {
  /** Empty when every configured service answered. */
  problems: PreflightProblem[];
  /** The slowest service's round trip on an open connection (ms); undefined when none was measured. */
  roundTripMs?: number;
}

/** Checks every configured target: the problems found, and the round trip of the slowest service that answered. */
export async function preflight(
  targets: Partial<Record<ServiceName, Omit<ServiceTarget, 'embedded'> | null>>,
  profile: Profile,
  options: { timeoutMs: number; retryBudgetMs: number; retries?: number; reportDir: string; runId: string },
): Promise<PreflightResult> {
  const run = new RunContext(options.runId, options.reportDir);
  const checks = Object.values(targets)
    .filter((t): t is Omit<ServiceTarget, 'embedded'> => Boolean(t))
    .map(async (target): Promise<{ problem?: PreflightProblem; roundTripMs?: number }> => {
      const client = new ServiceClient({ ...target, embedded: false }, profile, run, {
        timeoutMs: Math.min(options.timeoutMs, PREFLIGHT_TIMEOUT_MS),
        maxInFlight: 1,
        retryBudgetMs: Math.min(options.retryBudgetMs, PREFLIGHT_RETRY_BUDGET_MS),
        ...(options.retries !== undefined ? { retries: options.retries } : {}),
      });
      try {
        const ask = () => client.call('identityIdQuery', { linkId: `${run.namespace}preflight-no-such-identity` });
        const problem = problemOf(target.service, await ask());
        if (problem?.kind === 'credentials rejected')
          problem.credentials = credentialSettings(target.service, target.auth);
        const via = proxyFor(problem?.url ?? target.baseUrl, target.proxy);
        if (problem && via)
          problem.proxy = {
            url: shownProxy(via.url),
            setting: via.setting,
            noProxySetting: target.proxy?.noProxy?.setting ?? 'NO_PROXY',
          };
        if (problem) return { problem };
        // A retried or transient reply's time holds back-off waits, not the distance: no measurement.
        const again = await ask();
        const clean = !again.exchange.error && !again.exchange.retries?.length && !isTransient(again);
        return clean ? { roundTripMs: again.exchange.durationMs } : {};
      } finally {
        await client.close();
      }
    });
  const answers = await Promise.all(checks);
  const times = answers.flatMap((a) => (a.roundTripMs === undefined ? [] : [a.roundTripMs]));
  return {
    problems: answers.flatMap((a) => (a.problem ? [a.problem] : [])),
    ...(times.length ? { roundTripMs: Math.max(...times) } : {}),
  };
}

/** What a preflight reply says is wrong with the service, if anything. */
function problemOf(service: ServiceName, reply: Reply): PreflightProblem | undefined {
  const url = reply.exchange.url;
  const token = /^token: (.*); not sent$/.exec(reply.exchange.error ?? '');
  if (token)
    return /could not be reached/.test(token[1]!)
      ? { service, url, kind: 'unreachable', detail: token[1]!, hint: 'token endpoint' }
      : { service, url, kind: 'credentials rejected', detail: token[1]! };
  const tunnel = /Proxy response \((\d+)\)/.exec(reply.exchange.error ?? '');
  if (tunnel)
    return { service, url, kind: 'proxy refused', detail: `the proxy answered HTTP ${tunnel[1]} to the tunnel` };
  if (reply.status === 407) return { service, url, kind: 'proxy refused', detail: 'HTTP 407 from the proxy' };
  if (reply.exchange.error) return { service, url, kind: 'unreachable', detail: reply.exchange.error };
  if (reply.status === 401 || reply.status === 403)
    return { service, url, kind: 'credentials rejected', detail: `HTTP ${reply.status}` };
  if (reply.status === 404 && !reply.body)
    return {
      service,
      url,
      kind: 'not an identity service',
      detail: 'HTTP 404 without a response envelope: check the base URL and service path',
    };
  if (reply.status !== undefined && reply.status >= 500 && !reply.body)
    return { service, url, kind: 'unreachable', detail: `HTTP ${reply.status} without a response envelope` };
  return undefined;
}

/** One line per problem, naming the service, the URL, the proxy when one is in use, and the settings to look at. */
export function preflightMessage(problems: PreflightProblem[], prefixOf: (s: ServiceName) => string): string {
  return problems
    .map((p) => {
      const base = `${prefixOf(p.service)}_BASE_URL`;
      const proxy = p.proxy;
      const hint =
        p.kind === 'credentials rejected'
          ? `check ${(p.credentials ?? [`the credentials of ${base}`]).join(' and ')}`
          : p.kind === 'proxy refused' && proxy
            ? `check ${proxy.setting}${/407/.test(p.detail) ? ` (a proxy that asks for credentials takes them in the URL: http://user:password@host:port)` : ''}, ` +
              `or ${proxy.noProxySetting} to reach ${base} directly`
            : p.hint === 'token endpoint'
              ? `check ${prefixOf(p.service)}_OAUTH_TOKEN_URL`
              : proxy && p.kind === 'unreachable'
                ? `check ${proxy.setting} and ${proxy.noProxySetting} (${base} is reached through the proxy), and ` +
                  `${base}`
                : `check ${base}`;
      const state =
        p.kind === 'unreachable'
          ? 'unreachable'
          : p.kind === 'credentials rejected'
            ? 'rejecting the credentials'
            : p.kind === 'proxy refused'
              ? 'not reachable: the proxy refused'
              : 'not answering as an identity service';
      const via = proxy ? ` through the proxy ${proxy.url} (${proxy.setting})` : '';
      return (
        `conformance: preflight: the ${p.service} service at ${p.url}${via} is ${state} (${p.detail}); ${hint}. ` +
        `No check was run.`
      );
    })
    .join('\n');
}
