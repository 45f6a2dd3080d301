/**
 * The one sentence that states where a run sends its requests, printed before the first check and at the head of every
 * report (console summary, summary.md, report.html, junit.xml), so a run against the embedded reference can never pass
 * for a run against a deployment.
 */
import type { OAuthShown } from '../harness/oauth.js';
import { redactText } from '../harness/redact.js';

/** What the statement needs of a run description (report/summary.ts RunDescription). */
export interface Targets {
  embedded: boolean;
  targets: Array<{
    service: string;
    status: 'embedded' | 'configured' | 'not configured';
    baseUrl?: string;
    servicePath?: string;
  }>;
}

/** A URL without user info and with registered secrets masked. */
const shown = (url: string) => redactText(url.replace(/\/\/[^/@]*@/, '//[REDACTED]@'));

/**
 * "target: embedded reference ..." or "target: configured deployment: organization at <url>; person not configured;
 * ...".
 */
export function targetStatement(run: Targets): string {
  if (run.embedded) {
    const served = run.targets.filter((t) => t.status === 'embedded').map((t) => t.service);
    return (
      `target: the embedded reference deployment started by this run (no service URL is ` +
      `set)${served.length ? `, serving ${served.join(', ')}` : ''}; results say nothing about any other ` +
      `deployment`
    );
  }
  const parts = run.targets.map((t) =>
    t.status === 'configured'
      ? `${t.service} at ${shown(`${t.baseUrl ?? ''}${t.servicePath ?? ''}`)}`
      : `${t.service} not configured`,
  );
  return `target: configured deployment: ${parts.join('; ')}`;
}

/** A target's authentication in words: the scheme, and for an OAuth2 client its token host, client ID and scope. */
export function authText(t: { auth?: string; oauth?: OAuthShown }): string {
  if (!t.oauth) return t.auth ?? '-';
  const o = t.oauth;
  return (
    `${t.auth ?? 'bearer'}, OAuth2 client credentials: token from ${o.tokenHost}, client ${o.clientId}` +
    `${o.scope ? `, scope "${o.scope}"` : ''}${o.audience ? `, audience ${o.audience}` : ''}`
  );
}
