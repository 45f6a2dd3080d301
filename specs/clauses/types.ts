/**
 * Judging the wire form of typed values in a returned identity (clause WIRE-FORM, contract.ts): each value against its
 * data type. An e-mail address is a local part and a domain joined by "@" (RFC 5322 allows quoted local parts with
 * spaces and "@", and a domain without a dot): the seed says "e-mail address" and no more, so nothing narrower is
 * asked.
 * Source: organization-identity-api.md, Resources, Field data types; person-provider-identity-api.md, Resources, Person
 * identity.
 */

/** A value found in a reply, with its JSON pointer. */
export interface Located {
  pointer: string;
  value: unknown;
}

/** WIRE-FORM: the values (null excepted: an optional member) that `ok` refuses, in words. */
export function wrongWireForm(values: readonly Located[], ok: (v: unknown) => boolean, what: string): string[] {
  return values
    .filter((v) => v.value !== null && !ok(v.value))
    .map((v) => `${v.pointer}=${JSON.stringify(v.value)} is not ${what}`);
}

/**
 * True for a string that is a local part, "@" and a domain (the last "@" neither first nor last; no space in the
 * domain).
 */
export function isEmailAddress(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const at = v.lastIndexOf('@');
  return at > 0 && at < v.length - 1 && !/\s/.test(v.slice(at + 1));
}
