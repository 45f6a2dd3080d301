/**
 * docs/deployment-profile.md is the profile's schema written out (run/docs/profile.ts): it names every member the
 * schema accepts, with the default the schema gives, and equals what `npm run docs` writes, so a member added to the
 * schema cannot be missing from the document a user configures by.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { profileDoc } from '../run/docs/profile.js';
import { ProfileSchema } from '../harness/profile.js';

const doc = readFileSync(new URL('../docs/deployment-profile.md', import.meta.url), 'utf8');

/** Every leaf member of a parsed profile, as a dot path, with its value. */
function leaves(value: unknown, path: string[] = []): Array<[string, unknown]> {
  if (value && typeof value === 'object' && !Array.isArray(value))
    return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [[path.join('.'), value]];
}

describe('docs/deployment-profile.md', () => {
  it('names every member of the profile schema with its default', () => {
    const members = leaves(ProfileSchema.parse({}));
    expect(members.map(([m]) => m)).toEqual(
      expect.arrayContaining(['notifications.readPageSize', 'notifications.clockSkewMs']),
    );
    for (const [member, value] of members)
      expect(doc, member).toMatch(
        new RegExp(
          `^\\| \`${member.replace(/\./g, '\\.')}\` \\|.*\\| \`${JSON.stringify(value).replace(/[[\]]/g, '\\$&')}\` \\|$`,
          'm',
        ),
      );
  });

  it('is up to date with harness/profile.ts (npm run docs)', () => {
    expect(doc).toBe(`${profileDoc()}\n`);
  });
});
