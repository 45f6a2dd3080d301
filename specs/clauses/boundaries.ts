/**
 * Clauses of the boundary checks (scenarios/shared/rules/boundaries.ts): a request carrying values
 * at the edges of their types (generators/boundaries.ts) is refused, or what it stores or echoes
 * comes back as sent. Refusing is always legal (a deployment may keep no 4096-character name; size
 * limits are not shown); accepting and giving back something else is rejected only where a sentence
 * says the value comes back: the posted identity is added (organization-identity-api.md, Endpoints,
 * rule 2; person-provider-identity-api.md, Endpoints, postIdentity), a source record is identified by
 * its source name and native ID (What the service does), a relationship member the reply echoes
 * holds what was sent (Endpoints, addRelationshipService). Everything else a boundary value may
 * meet is judged by the clause of its own rule (the echo of trackingId and auditId, results above
 * matchScoreThreshold, at most maxSearchResults results, at most pageSize notifications).
 *
 * "As sent" is the value's type's: text with the same characters (letter case, Unicode
 * normalisation form and runs of whitespace aside: a standardised view may change those), the same
 * number however written, the same date, time or instant. Identifiers (native IDs, trackingId,
 * auditId) come back character for character.
 */
import type { ValueType } from '../common/leaf-types.js';
import { clause } from '../common/clause.js';

export const VALUE_NOT_KEPT = clause(
  'VALUE-NOT-KEPT',
  'a value at the edge of its type that a request was accepted with, which the reply or the identity read back shows ' +
    'changed (characters lost, added or replaced beyond letter case, Unicode normalisation and spacing; another ' +
    "number, date, time or instant), or leaves out where it shows the member's other values",
  ['boundaries.stored', 'boundaries.relationship'],
);

export const NATIVE_ID_NOT_KEPT = clause(
  'NATIVE-ID-NOT-KEPT',
  'a source accepted with a native ID at the edge of its type that nativeIdQuery by that native ID does not find, ' +
    'or whose identity lists the source under another native ID',
  ['boundaries.nativeId'],
);

export const PAGE_PAST_END = clause(
  'PAGE-PAST-END',
  'a notification page whose first place lies far past totalElements that holds notifications (a page number at ' +
    'the edge of its type read as another page)',
  ['notifications.paging'],
);

/** Text as a standardised view may show it: compatibility-normalised, whitespace runs as one space, trimmed. */
const folded = (s: string) => s.normalize('NFKC').replace(/\s+/gu, ' ').trim();

/** A number as `sign digits e exponent`, no leading or trailing zeros; undefined when it is no number. */
export function decimal(text: string): string | undefined {
  const m = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m || !`${m[2]}${m[3] ?? ''}`.length) return undefined;
  const fraction = m[3] ?? '';
  let digits = `${m[2]}${fraction}`.replace(/^0+/, '');
  let exponent = BigInt(m[4] ?? 0) - BigInt(fraction.length);
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += BigInt(trailing);
  if (!digits) return '0';
  return `${m[1] === '-' ? '-' : ''}${digits}e${exponent}`;
}

/**
 * True when `shown` is the value `sent` of type `type`, in the type's terms (see the module
 * comment): text folded and compared without letter case, numbers by value (a string or a JSON
 * number), a date (or the date of a date-time), a time (seconds :00 allowed), an instant.
 */
export function sameValue(type: ValueType, sent: unknown, shown: unknown): boolean {
  switch (type) {
    case 'TEXT':
    case 'EMAIL':
    case 'CODE-SET': {
      if (typeof shown !== 'string' || typeof sent !== 'string') return false;
      const [a, b] = [folded(sent), folded(shown)];
      return a === b || a.toLowerCase() === b.toLowerCase() || a.toUpperCase() === b.toUpperCase();
    }
    case 'NUMBER':
    case 'JSON-NUMBER':
    case 'INTEGER': {
      if (typeof shown !== 'string' && typeof shown !== 'number') return false;
      const a = decimal(String(sent));
      return a !== undefined && a === decimal(String(shown));
    }
    case 'DATE':
      return typeof shown === 'string' && /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(shown) && shown.slice(0, 10) === sent;
    case 'TIME':
      return typeof shown === 'string' && (shown === sent || shown === `${sent}:00` || shown.startsWith(`${sent}:00.`));
    case 'DATE-TIME': {
      const [a, b] = [Date.parse(String(sent)), typeof shown === 'string' ? Date.parse(shown) : Number.NaN];
      return Number.isFinite(a) && a === b;
    }
    case 'BOOLEAN':
      return shown === sent || (typeof shown === 'string' && shown.toLowerCase() === String(sent));
  }
}

/** A value for a finding: short text as JSON, long text as its start and its length. */
export function shortly(v: unknown): string {
  if (typeof v !== 'string' || [...v].length <= 48) return JSON.stringify(v);
  return `${JSON.stringify([...v].slice(0, 32).join(''))}... (${[...v].length} characters)`;
}

/** One boundary value as sent, with what the deployment showed at its member. */
export interface KeptObservation {
  /** The boundary's name and where it went: `length 256 at organizationNames.[].legalBusinessName`. */
  what: string;
  type: ValueType;
  sent: unknown;
  /** Every value the reply shows at the member. */
  shown: readonly unknown[];
  /** The deployment shows the member for other values (so leaving this one out is no view that omits the member). */
  memberShown: boolean;
}

/** VALUE-NOT-KEPT: each value the deployment shows changed, or leaves out while it shows the member. */
export function valueNotKept(observed: readonly KeptObservation[]): string[] {
  return observed.flatMap((o) => {
    if (o.shown.some((v) => sameValue(o.type, o.sent, v))) return [];
    if (o.shown.length)
      return [`${o.what}: sent ${shortly(o.sent)}, shown ${o.shown.slice(0, 2).map(shortly).join(' and ')}`];
    return o.memberShown ? [`${o.what}: sent ${shortly(o.sent)}, not shown, though the member shows other values`] : [];
  });
}

/**
 * NATIVE-ID-NOT-KEPT: the native ID sent, when nativeIdQuery by it found nothing, or the identity
 * lists the source (by its name) only under other native IDs (`listed`: the native IDs its
 * grouped entries give the source name; empty: the reply groups nothing, which is not judged).
 */
export function nativeIdNotKept(what: string, sent: string, found: boolean, listed: readonly string[]): string[] {
  if (!found) return [`${what}: nativeIdQuery by native ID ${shortly(sent)} found no identity`];
  return !listed.length || listed.includes(sent)
    ? []
    : [`${what}: sent native ID ${shortly(sent)}, listed as ${listed.map(shortly).join(', ')}`];
}

/**
 * PAGE-PAST-END: a page whose first place ((pageNumber - firstPage) * pageSize) is past twice
 * totalElements and a thousand more (so no write between the count and the page explains it),
 * when it holds notifications.
 */
export function pagePastEnd(
  page: { pageNumber: number; firstPage: number; pageSize: number },
  total: unknown,
  count: number,
): string[] {
  if (typeof total !== 'number' || !count) return [];
  const first = (page.pageNumber - page.firstPage) * page.pageSize;
  return first > 2 * total + 1000
    ? [
        `page ${page.pageNumber} of size ${page.pageSize} (from place ${first}) holds ${count} notifications; ` +
          `totalElements is ${total}`,
      ]
    : [];
}

export const BOUNDARY_CLAUSES = [VALUE_NOT_KEPT, NATIVE_ID_NOT_KEPT, PAGE_PAST_END];
