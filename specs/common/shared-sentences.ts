/**
 * Sentences of person-provider-identity-api.md that the person and the provider catalogues both rest on (the shared
 * envelope, errors and limits), quoted once.
 * Source: person-provider-identity-api.md, sections as named.
 */
import { ppSeed } from './seed.js';

/** The reply envelope and its members' types. */
export const PP_REPLY_ENVELOPE = ppSeed(
  'Resources, Envelope',
  'Reply: `auditId`, `success` (boolean), `unparsedJson` (string), `warnings` (array of string), ' +
    '`retryableError` (boolean), `message` (string), `content` (object), `errors` (array of string), `trackingId`.',
);
/** Every operation replies with the reply envelope. */
export const PP_REPLY_IS_ENVELOPE = ppSeed(
  'Endpoints',
  'All operations are `POST` with `Content-Type: application/json`; the body is the request envelope and the ' +
    'reply is the reply envelope.',
);
/** maxSearchResults: greater than 0; absent, the system maximum. */
export const PP_MAX_RESULTS = ppSeed(
  'Limits',
  '`maxSearchResults` must be greater than 0; when absent, the system maximum number of results is returned.',
);
/** Versioning: which operations carry /v2. */
export const PP_PATH_VERSIONS = ppSeed(
  'Versioning',
  'The first five person operations (postIdentity, demographicsSearch, demographicsQuery, identityIdQuery, ' +
    'nativeIdQuery) carry a `/v2` path segment; the other person operations and all provider operations carry ' +
    'none.',
);
