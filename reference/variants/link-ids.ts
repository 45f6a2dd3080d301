/**
 * link-id-format: link IDs in another format. The seeds only say an identity is "addressed by a service-wide identifier
 * called the link ID (`linkId`)", a string (organization-identity-api.md, "What the service does"); its form is not
 * shown.
 * - uuid: a random UUID, e.g. 3b241101-e2bb-4255-8caf-4136c566a962;
 * - numeric: 19 decimal digits, e.g. 4820571938475610293 (beyond JSON's exact integers: a client that parses it as a
 *   number corrupts it);
 * - urn: urn:<service>:entity:<24 hex digits>.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ReferenceHook } from '../hooks.js';

export const LINK_ID_FORMATS = ['uuid', 'numeric', 'urn'] as const;
export type LinkIdFormat = (typeof LINK_ID_FORMATS)[number];

/** A new link ID of the format for a service. */
export function linkIdOf(format: LinkIdFormat, service: string): string {
  if (format === 'uuid') return randomUUID();
  if (format === 'numeric') return `${1 + (randomBytes(1)[0]! % 9)}${[...randomBytes(18)].map((b) => b % 10).join('')}`;
  return `urn:${service}:entity:${randomBytes(12).toString('hex')}`;
}

export const linkIdFormat = (format: LinkIdFormat): ReferenceHook[] => [
  { setupStore: (store) => void (store.linkIdFormat = () => linkIdOf(format, store.service)) },
];
