/**
 * Model-based walks over the organization state table: generated sequences of post, update,
 * soft delete, restore, hard delete, merge, unmerge, link and unlink, checked after every step
 * against the identity model (reply, rejection, partition up to renaming of link IDs).
 * Source: organization-identity-api.md, "States and transitions".
 */
import { walkChecks } from '../shared/walk/walk.js';
import { area } from './org.js';
import { WALKS_FILE, organizationWalks } from './walk-config.js';

walkChecks(area('walks').check, organizationWalks, WALKS_FILE);
