/**
 * The clause registry (specs/clause-registry.ts), linted as test262 lints its metadata: every clause's ID and "rejects"
 * text is unique; every clause cites a requirement in at least one service; every sentence a clause rests on (the
 * forbidding sentence of each requirement it cites, and a state-table reply clause's own sentence) is found word for
 * word in the seed document it names; and every clause is judged with somewhere: its constant is named in a source
 * outside the registry's lists (a check, the oracle, a step, a row). A planted unused clause and a planted duplicate
 * are caught.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLAUSES, CLAUSE_AREAS, clauseRequirements, restsOn } from '../specs/clause-registry.js';
import * as auth from '../specs/clauses/auth.js';
import * as badInput from '../specs/clauses/bad-input.js';
import * as boundaries from '../specs/clauses/boundaries.js';
import * as contract from '../specs/clauses/contract.js';
import * as envelope from '../specs/clauses/envelope.js';
import * as matching from '../specs/clauses/matching.js';
import * as notifications from '../specs/clauses/notifications.js';
import * as person from '../specs/clauses/person.js';
import * as post from '../specs/clauses/post.js';
import * as query from '../specs/clauses/query.js';
import * as relationships from '../specs/clauses/relationships.js';
import * as search from '../specs/clauses/search.js';
import type { Clause } from '../specs/common/clause.js';
import type { SeedCitation } from '../specs/common/seed.js';
import { SERVICES, serviceNames } from '../specs/services.js';
import * as feed from '../specs/state/feed-clauses.js';
import * as households from '../specs/state/households.js';
import * as data from '../specs/state/oracle-data.js';
import * as lookups from '../specs/state/oracle-lookups.js';
import * as replies from '../specs/state/reply-clauses.js';
import * as steps from '../specs/state/step-clauses.js';

const ROOT = join(import.meta.dirname, '..');
const ALL = CLAUSE_AREAS.flatMap((a) => a.clauses);
const seed = (file: string) => readFileSync(join(ROOT, 'specs', 'seeds', file), 'utf8');
/** A quote may join table cells with " | " and leave words out with "...": each piece is in the seed. */
const pieces = (quote: string) => quote.split(/\s*\|\s*|\s*\.\.\.\s*/).filter(Boolean);
const inSeed = (s: SeedCitation) => pieces(s.quote).every((p) => seed(s.file).includes(p));

/** The modules that define clauses, each with the file it stands in. */
const MODULES: Array<[file: string, exports: Record<string, unknown>]> = [
  ['specs/clauses/auth.ts', auth],
  ['specs/clauses/bad-input.ts', badInput],
  ['specs/clauses/boundaries.ts', boundaries],
  ['specs/clauses/contract.ts', contract],
  ['specs/clauses/envelope.ts', envelope],
  ['specs/clauses/matching.ts', matching],
  ['specs/clauses/notifications.ts', notifications],
  ['specs/clauses/person.ts', person],
  ['specs/clauses/post.ts', post],
  ['specs/clauses/query.ts', query],
  ['specs/clauses/relationships.ts', relationships],
  ['specs/clauses/search.ts', search],
  ['specs/state/feed-clauses.ts', feed],
  ['specs/state/households.ts', households],
  ['specs/state/oracle-data.ts', data],
  ['specs/state/oracle-lookups.ts', lookups],
  ['specs/state/reply-clauses.ts', replies],
  ['specs/state/step-clauses.ts', steps],
];

/** The constant each clause of the registry is exported as, with its module. */
function constants(): Map<Clause, { name: string; file: string }> {
  const out = new Map<Clause, { name: string; file: string }>();
  for (const [file, exports] of MODULES)
    for (const [name, value] of Object.entries(exports))
      if (ALL.includes(value as Clause) && !out.has(value as Clause)) out.set(value as Clause, { name, file });
  return out;
}

/**
 * The suite's sources (the scenario files included), without the project's tests and the registry's own lists of
 * clauses (the `*_CLAUSES` arrays and the registry).
 */
function sources(): Array<{ file: string; text: string }> {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f && !f.startsWith('test/') && f !== 'specs/clause-registry.ts');
  return files.map((file) => ({
    file,
    text: readFileSync(join(ROOT, file), 'utf8').replace(
      /export const [A-Z_]*CLAUSES\b[^=]*= \[[\s\S]*?\](?: as const)?;/g,
      '',
    ),
  }));
}

/**
 * The registry's clauses no source judges with: each constant must be named somewhere besides its own definition and
 * the registry's lists.
 */
function unusedClauses(
  defined: Map<Clause, { name: string; file: string }>,
  texts: Array<{ file: string; text: string }>,
): string[] {
  return [...defined].flatMap(([c, { name, file }]) => {
    const word = new RegExp(`\\b${name}\\b`, 'g');
    const uses = texts.reduce((n, t) => {
      const found = (t.text.match(word) ?? []).length;
      return n + (t.file === file ? Math.max(0, found - 1) : found);
    }, 0);
    return uses ? [] : [c.id];
  });
}

/** IDs, and "rejects" texts, that two clauses share. */
const repeated = (clauses: readonly Clause[], key: (c: Clause) => string) => {
  const keys = clauses.map(key);
  return keys.filter((k, i) => keys.indexOf(k) !== i);
};

describe('the clause registry', () => {
  it('holds every clause once: no ID and no "rejects" text twice', () => {
    expect(ALL.length).toBeGreaterThan(100);
    expect(repeated(ALL, (c) => c.id)).toEqual([]);
    expect(repeated(ALL, (c) => c.rejects)).toEqual([]);
    expect(CLAUSES.size).toBe(ALL.length);
  });

  it('finds a planted duplicate ID and a planted duplicate "rejects" text', () => {
    const [a, b] = ALL as [Clause, Clause];
    expect(repeated([a, b, { ...b, rejects: 'x' }], (c) => c.id)).toEqual([b.id]);
    expect(repeated([a, b, { ...a, id: 'X' }], (c) => c.rejects)).toEqual([a.rejects]);
  });

  it('every clause cites a requirement in at least one service', () => {
    for (const c of ALL)
      expect(
        serviceNames().some((s) => c.cites.includes('*') || clauseRequirements(c, s).length),
        c.id,
      ).toBe(true);
  });

  it('every sentence a clause rests on is in the seed document it names, word for word', () => {
    let checked = 0;
    for (const service of serviceNames()) {
      const byId = new Map(SERVICES[service].requirements.map((r) => [r.id, r]));
      for (const c of ALL)
        for (const id of clauseRequirements(c, service)) {
          const s = restsOn(c, byId.get(id)!);
          if (!s) continue;
          checked++;
          expect(inSeed(s), `${c.id} in ${service}: ${s.file}: "${s.quote}"`).toBe(true);
        }
      for (const row of SERVICES[service].stateSpec.rows)
        for (const r of row.reply) {
          checked++;
          expect(inSeed(r.seed), `${r.id} of ${service} ${row.step}: "${r.seed.quote}"`).toBe(true);
          expect(CLAUSES.get(r.id), `${r.id} is in the registry`).toBeDefined();
        }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('every clause is judged with somewhere: its constant is named outside its definition and the lists', () => {
    const defined = constants();
    expect([...defined.keys()].length, 'every clause of the registry is exported by a module above').toBe(ALL.length);
    expect(unusedClauses(defined, sources())).toEqual([]);
  });

  it('finds a planted clause that no source names', () => {
    const planted = { id: 'PLANTED-UNUSED', rejects: 'nothing', cites: ['*'] } as Clause;
    const defined = new Map([[planted, { name: 'PLANTED_UNUSED', file: 'specs/clauses/planted.ts' }]]);
    const texts = [
      { file: 'specs/clauses/planted.ts', text: "export const PLANTED_UNUSED = clause('PLANTED-UNUSED', ...);" },
    ];
    expect(unusedClauses(defined, texts)).toEqual(['PLANTED-UNUSED']);
    texts.push({ file: 'scenarios/shared/rules/x.ts', text: 't.judge(PLANTED_UNUSED, id, [])' });
    expect(unusedClauses(defined, texts)).toEqual([]);
  });
});
