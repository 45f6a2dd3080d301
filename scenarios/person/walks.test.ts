/**
 * Model-based walks over the person state table: generated sequences of post, update,
 * deactivate, reactivate, hard delete, merge, unmerge, link and unlink (the person service has
 * no soft delete or restore), checked after every step against the identity model (reply,
 * rejection, partition up to renaming of link IDs; a deactivated record stays visible in its
 * identity, an exact copy posted meanwhile does not join it, and it is reactivated into its
 * original link ID).
 * Source: person-provider-identity-api.md, "States and transitions" (person rows).
 */
import { walkChecks } from '../shared/walk/walk.js';
import { area } from './person.js';
import { WALKS_FILE, personWalks } from './walk-config.js';

walkChecks(area('walks').check, personWalks, WALKS_FILE);
