/**
 * Provider envelope promises, per operation (shared table), and the failure envelope.
 * Source: person-provider-identity-api.md, Resources (Envelope), Endpoints, Errors.
 */
import { providerOperations } from '../../specs/provider/operations.js';
import { envelopeChecks } from '../shared/rules/envelope.js';
import { area, practitioner } from './provider.js';

envelopeChecks({
  check: area('envelope').check,
  kit: practitioner,
  operations: providerOperations,
});
