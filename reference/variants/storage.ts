/**
 * How a deployment stores text, as far as the seeds leave it open: a deployment may refuse what it
 * cannot keep (size limits and allowed characters are not shown), and may show text standardised
 * (the DEFAULT view's contents are not shown); the boundary checks (scenarios/shared/rules/boundaries.ts)
 * must pass both.
 * - narrowStorage: any string of a request (its envelope too) longer than <width> characters, or
 *   holding a character outside the Basic Multilingual Plane, is refused as a validation failure.
 * - standardisedText: the identity's text is shown upper-cased, Unicode-composed (NFC), its
 *   whitespace runs as one space and trimmed (source references and identifiers as they were).
 */
import type { ReferenceHook, ReplyInfo, ValidationInfo } from '../hooks.js';
import { mapIdentities } from '../faults/transforms.js';

/** Every string of a JSON value. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

export function narrowStorage(width: number): ReferenceHook[] {
  const validate = (info: ValidationInfo): string[] => {
    const { content: _c, ...envelope } = info.envelope;
    const texts = [...strings(info.content), ...strings(envelope)];
    const long = texts.find((s) => [...s].length > width);
    const astral = texts.find((s) => ASTRAL.test(s));
    return [
      ...info.issues,
      ...(long ? [`a value of ${[...long].length} characters: at most ${width} are kept`] : []),
      ...(astral ? ['a character outside the Basic Multilingual Plane: it cannot be kept'] : []),
    ];
  };
  return [{ validate }];
}

/** Members that name records or sources, shown as they were. */
const IDENTIFIERS = new Set([
  'id',
  'name',
  'linkId',
  'nativeId',
  'sourceId',
  'sourceName',
  'displayName',
  'clusterStatus',
]);

export function standardisedText(): ReferenceHook[] {
  const standard = (k: string, v: unknown) =>
    typeof v === 'string' && !IDENTIFIERS.has(k) ? v.normalize('NFC').replace(/\s+/gu, ' ').trim().toUpperCase() : v;
  return [{ reply: (i: ReplyInfo) => mapIdentities(i.body.content, standard) }];
}
