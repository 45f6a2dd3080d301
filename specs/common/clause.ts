/**
 * Clauses: every judgement a check or the whole-state oracle makes, as data. A clause has a stable ID, the observation
 * it rejects (in words), and, per service, the requirement it verifies and the seed sentence that forbids what it
 * rejects (quoted word for word; test/seeds.test.ts verifies every quote against the shipped seed documents). A clause
 * rejects only observations that contradict its sentence: anything no clause rejects is accepted, including answers no
 * reference of ours gives. An EXPECT requirement has no forbidding sentence (the seeds are silent): its own text says
 * what any identity service does, and its failures never gate.
 *
 * Source: organization-identity-api.md and person-provider-identity-api.md (each clause names the section and sentence
 * it rests on).
 */
import type { SeedCitation } from './seed.js';

/**
 * One named judgement, an entry of the clause registry (specs/clauses/registry.ts): what it rejects, in words, and what
 * it cites in each service.
 */
export interface Clause {
  /** Stable ID in upper-case words joined by dashes (`DELETED-SOURCE-DATA-SHOWN`); reports and tests key on it. */
  readonly id: string;
  /** The observation it rejects, in words ("a reply shows values of a hard-deleted source"). */
  readonly rejects: string;
  /**
   * What it cites in each service: roles of the shared rules (`search.threshold`), role families (`op.*`, `type.*`;
   * `governs:*`: the requirements that govern a reply member), requirement IDs, `*` (any requirement of the check that
   * sends the request), or what the service's state table gives (`state:<family>`, specs/state/state-cites.ts).
   */
  readonly cites: readonly string[];
  /** Words of the forbidding sentence the clause rests on, where its requirement names several. */
  readonly on?: string;
  /** For a listing: what `*` stands for at this clause. */
  readonly citesNote?: string;
}

/**
 * What a clause cites in one service: the requirement it verifies and the sentence forbidding what it rejects. Absent
 * only for an EXPECT requirement, or where the seeds leave the matter "not shown" and the deployment profile pins it
 * (`profile` names the setting and its value).
 */
export interface Cite {
  requirement: string;
  forbids?: SeedCitation;
  /**
   * The profile setting that pins what the seeds leave open (`softDeletedLookup = absent`), when the clause rests on
   * it.
   */
  profile?: string;
}

/** One observation a clause rejected: the clause, what it cites, and what was observed, in words. */
export interface Finding extends Cite {
  clause: string;
  /** What the deployment showed, in words, with the values that make it a contradiction. */
  observed: string;
}

/**
 * A clause constant: `clause('BELOW-THRESHOLD', 'a result scoring below matchScoreThreshold', ['search.threshold'])`.
 * @throws Error for an ID that is not upper-case words joined by dashes
 */
export function clause(
  id: string,
  rejects: string,
  cites: readonly string[],
  more: { on?: string; citesNote?: string } = {},
): Clause {
  if (!/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$/.test(id)) throw new Error(`clause ID ${id}: upper-case words joined by dashes`);
  return { id, rejects, cites, ...more };
}

/** A finding of `c` citing `cite`, having observed `observed`. */
export const finding = (c: Clause, cite: Cite, observed: string): Finding => ({ clause: c.id, ...cite, observed });
