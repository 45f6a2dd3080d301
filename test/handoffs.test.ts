/**
 * Every value the suite's processes hand to each other in the environment is declared once, in
 * harness/handoff.ts, with the files that set and read it. Here: the declarations name the files
 * that use them and no others, internal variables are spelt nowhere else, and every variable with
 * the suite's prefixes that the code or the docs name is a setting or a declared hand-off (a new
 * internal variable, or a misspelt setting, fails here).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HANDOFF, HANDOFFS } from '../harness/handoff.js';
import { knownSettingNames } from '../harness/setting-names.js';

const ROOT = resolve(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', 'reports', '.git']);

/** The project's files of the given kinds, relative to the root, with their text. */
function files(pattern: RegExp, dir = ROOT): Array<{ file: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (SKIP.has(d.name) || d.name.startsWith('.')) return [];
    const p = join(dir, d.name);
    if (d.isDirectory()) return files(pattern, p);
    return pattern.test(d.name)
      ? [{ file: relative(ROOT, p).split('\\').join('/'), text: readFileSync(p, 'utf8') }]
      : [];
  });
}

const CODE = files(/\.(ts|mjs|js|cjs)$/);
const DOCS = files(/\.md$/);
const isTest = (file: string) => file.startsWith('test/');
/** Code without its comments: a comment may name a hand-off without using it. */
const uncommented = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('the hand-offs between processes (harness/handoff.ts)', () => {
  it('declare each variable once, naming files that exist', () => {
    const names = HANDOFFS.map((h) => h.name);
    expect(new Set(names).size).toBe(names.length);
    for (const h of HANDOFFS)
      for (const file of [...h.setBy, ...h.readBy])
        expect(existsSync(join(ROOT, file)), `${h.name}: ${file}`).toBe(true);
  });

  it('name every file that uses a hand-off, and only files that do', () => {
    for (const [key, h] of Object.entries(HANDOFF)) {
      const use = new RegExp(`HANDOFF\\.${key}\\b|\\b${h.name}\\b`);
      const users = CODE.filter(
        ({ file, text }) =>
          !isTest(file) && file !== 'harness/handoff.ts' && new RegExp(`HANDOFF\\.${key}\\b`).test(uncommented(text)),
      );
      const listed = new Set([...h.setBy, ...h.readBy]);
      expect(
        users.map((u) => u.file).filter((f) => !listed.has(f)),
        `${h.name}: files that use HANDOFF.${key} but are not in its setBy or readBy`,
      ).toEqual([]);
      expect(
        [...listed].filter((f) => !use.test(readFileSync(join(ROOT, f), 'utf8'))),
        `${h.name}: files in its setBy or readBy that name neither HANDOFF.${key} nor ${h.name}`,
      ).toEqual([]);
    }
  });

  it('spell the name of an internal variable nowhere in the code but there', () => {
    for (const h of HANDOFFS.filter((x) => !x.handedOn)) {
      const spelt = CODE.filter(
        ({ file, text }) => file !== 'harness/handoff.ts' && new RegExp(`\\b${h.name}\\b`).test(text),
      );
      expect(
        spelt.map((s) => s.file),
        `${h.name}: use HANDOFF`,
      ).toEqual([]);
    }
  });

  it('with the settings, are every variable with a suite prefix that the code and the docs name', () => {
    // Constants of the code (REFERENCE_SERVICES) share the prefixes; they are declared as such.
    const constants = new Set(
      CODE.flatMap(({ text }) =>
        [...text.matchAll(/\b(?:const|let|var|function|class|type|interface|enum)\s+([A-Z][A-Z0-9_]*)\b/g)].map(
          (m) => m[1]!,
        ),
      ),
    );
    const known = new Set([...knownSettingNames(), ...HANDOFFS.map((h) => h.name)]);
    // Tests spell wrong names on purpose (the misspelt-setting checks).
    const named = [...CODE.filter(({ file }) => !isTest(file)), ...DOCS].flatMap(({ file, text }) =>
      [...text.matchAll(/\b(?:CONFORMANCE|DETECTION|REFERENCE)_[A-Z][A-Z0-9_]*\b/g)].map((m) => `${m[0]} (${file})`),
    );
    const neither = named.filter((n) => !known.has(n.split(' ')[0]!) && !constants.has(n.split(' ')[0]!));
    expect(neither, 'neither a setting (harness/setting-names.ts) nor a hand-off (harness/handoff.ts)').toEqual([]);
  });
});
