/**
 * HTTP status variants: which HTTP status carries a failure envelope is not shown (organization-identity-api.md,
 * Errors: "HTTP status codes other than 200: not shown"; person-provider-identity-api.md, Errors: "HTTP status codes,
 * error codes and message texts: not shown"). The envelope (success=false, message, errors, retryableError=false) is
 * kept in every variant; authentication failures (HTTP 401) are left alone, they come before the envelope.
 *
 * The reference itself answers validation 400, not found 404, state conflicts 409.
 */
import type { ReferenceHook, ReplyInfo } from '../hooks.js';

const failure = (i: ReplyInfo) => i.body.success === false && i.status !== 401;

/** Every failure as HTTP 200 with success=false. */
export const status200 = (): ReferenceHook[] => [{ reply: (i) => void (failure(i) && (i.status = 200)) }];

/** Validation failures as HTTP 422 (instead of 400); not found stays 404, state conflicts 409. */
export const status4xx = (): ReferenceHook[] => [
  { reply: (i) => void (failure(i) && i.status === 400 && (i.status = 422)) },
];

/** Every failure as HTTP 500, still enveloped and not retryable. */
export const status500 = (): ReferenceHook[] => [
  {
    reply: (i) => {
      if (!failure(i)) return;
      i.status = 500;
      i.body.retryableError = false;
    },
  },
];
