/**
 * Model-based walks over the provider state table, with practitioners and health facilities
 * posted alternately so that merge and link attempts across provider types come up (they must be
 * rejected and change nothing): generated sequences of post, update, soft delete, restore, hard
 * delete, merge, unmerge, link and unlink, checked after every step against the identity model.
 * Source: person-provider-identity-api.md, "States and transitions" (provider rows: same type only).
 */
import { walkChecks } from '../shared/walk/walk.js';
import { area } from './provider.js';
import { WALKS_FILE, providerWalks } from './walk-config.js';

walkChecks(area('walks').check, providerWalks, WALKS_FILE);
