/**
 * Model-based walks over the organization state table: generated sequences of post, update,
 * soft delete, restore, hard delete, merge, unmerge, link and unlink, checked after every step
 * against the identity model (reply, rejection, partition up to renaming of link IDs).
 * Source: organization-identity-api.md, "States and transitions".
 */
import { runWalks } from '../shared/model/walk.js';
import { walkRequirementIds } from '../shared/model/walk-real.js';
import { area } from './org.js';
import { WALKS_FILE, WALKS_TITLE, organizationWalks } from './walk-config.js';

const { check } = area('walks');

check(WALKS_TITLE, walkRequirementIds(organizationWalks), (t) => runWalks(t, organizationWalks, { file: WALKS_FILE, title: WALKS_TITLE }));
