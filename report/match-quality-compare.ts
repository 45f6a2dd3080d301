/**
 * The match-quality part of `npm run compare`: for every service both run folders measured (`match-quality/<service>/`,
 * written by `npm run match-quality`), the matching decisions that changed (report/pair-decisions.ts: pairs newly
 * merged and newly split, true pairs and non-pairs apart, with both records as posted), each run's headline figures,
 * and the paired-bootstrap verdict when the current run was made with `--compare` against the baseline's (its
 * comparison.json). Runs on different data are named, not compared.
 *
 * Reads the files linkage/report.ts writes (results.json: runId, options, analysis.metrics; comparison.json:
 * baselineRunId, regressions, rows; records.jsonl.gz) by name, without importing linkage (which imports this folder).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { matchVerdictText } from './match-verdict.js';
import { mdTable } from './md-table.js';
import {
  type DecisionRecords,
  type PairDecisions,
  changedPairs,
  decisionsCsv,
  decisionsMarkdown,
  readPostedRecords,
} from './pair-decisions.js';

interface Interval {
  value: number;
  low: number;
  high: number;
}

/** What this module reads of a match-quality results.json. */
interface ResultsSummary {
  runId: string;
  options: { preset?: string; seed?: number; size?: number };
  analysis: { metrics: Record<string, Interval> };
}

/** What this module reads of a match-quality comparison.json. */
interface PairedVerdict {
  baselineRunId: string;
  regressions: string[];
  rows: Array<{ metric: string; a: Interval; b: Interval; diff: Interval; regression: boolean; improvement?: boolean }>;
}

export interface MatchQualityComparison {
  service: string;
  baselineRunId: string;
  currentRunId: string;
  /** Why the two runs cannot be compared pair by pair (other records or other data), if so. */
  notComparable?: string;
  decisions?: PairDecisions;
  records?: DecisionRecords;
  figures: Array<{ metric: string; before?: Interval; after?: Interval }>;
  /** The paired-bootstrap verdict of the current run's `--compare` against this baseline, when it made one. */
  paired?: PairedVerdict;
}

const FIGURES = [
  'pairwise.precision',
  'pairwise.recall',
  'pairwise.f1',
  'b3.f',
  'residualDuplicateRate',
  'overlayRecordRate',
];

const readJson = <T>(file: string): T | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;

/**
 * The services whose match-quality results a run folder holds (match-quality/<service>/results.json or
 * records.jsonl.gz).
 */
export function matchQualityServices(runFolder: string): string[] {
  const dir = join(runFolder, 'match-quality');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'results.json')))
    .map((d) => d.name)
    .sort();
}

/** Compares the match-quality results of every service both run folders hold. */
export function compareMatchQuality(baselineFolder: string, currentFolder: string): MatchQualityComparison[] {
  const theirs = new Set(matchQualityServices(currentFolder));
  return matchQualityServices(baselineFolder)
    .filter((s) => theirs.has(s))
    .map((service) => {
      const a = join(baselineFolder, 'match-quality', service);
      const b = join(currentFolder, 'match-quality', service);
      const ra = readJson<ResultsSummary>(join(a, 'results.json'))!;
      const rb = readJson<ResultsSummary>(join(b, 'results.json'))!;
      const out: MatchQualityComparison = {
        service,
        baselineRunId: ra.runId,
        currentRunId: rb.runId,
        figures: FIGURES.map((metric) => ({
          metric,
          before: ra.analysis.metrics[metric],
          after: rb.analysis.metrics[metric],
        })),
      };
      const paired = readJson<PairedVerdict>(join(b, 'comparison.json'));
      if (paired && paired.baselineRunId === ra.runId) out.paired = paired;
      const pa = readPostedRecords(a);
      const pb = readPostedRecords(b);
      if (!pa || !pb)
        out.notComparable =
          'a run folder holds no records.jsonl.gz (a match-quality run older than the decisions list)';
      else if (pa.length !== pb.length || pa.some((r, i) => r.id !== pb[i]!.id || r.cluster !== pb[i]!.cluster))
        out.notComparable = 'the runs posted different records (another data set, seed or truth set)';
      else if (pa.some((r, i) => JSON.stringify(r.identity) !== JSON.stringify(pb[i]!.identity)))
        out.notComparable = 'the runs posted the same record IDs with different data';
      else {
        const records: DecisionRecords = {
          ids: pb.map((r) => r.id),
          truth: pb.map((r) => r.cluster),
          before: pa.map((r) => r.linkId),
          after: pb.map((r) => r.linkId),
          identity: (i) => pb[i]!.identity,
        };
        out.records = records;
        out.decisions = changedPairs(records.truth, records.before, records.after);
      }
      return out;
    });
}

/** True when a paired verdict the current run recorded against this baseline found a regression. */
export const matchQualityRegressed = (list: MatchQualityComparison[]) =>
  list.some((c) => (c.paired?.regressions.length ?? 0) > 0);

const pct = (m?: Interval) =>
  m ? `${(m.value * 100).toFixed(2)}% [${(m.low * 100).toFixed(2)}, ${(m.high * 100).toFixed(2)}]` : '–';
const pp = (m: Interval) =>
  `${(m.value * 100).toFixed(2)} pp [${(m.low * 100).toFixed(2)}, ${(m.high * 100).toFixed(2)}]`;

/** The CSV of one service's changed pairs (report/pair-decisions.ts decisionsCsv), or undefined when not comparable. */
export const matchQualityCsv = (c: MatchQualityComparison): string | undefined =>
  c.decisions && c.records ? decisionsCsv(c.decisions, c.records) : undefined;

/** The match-quality comparisons as Markdown, one section per service. */
export function matchQualityMarkdown(list: MatchQualityComparison[]): string {
  const L: string[] = [];
  for (const c of list) {
    L.push(`## Match quality: ${c.service} (${c.baselineRunId} → ${c.currentRunId})`, '');
    L.push(
      c.paired
        ? `Paired-bootstrap verdict (the current run's --compare against the baseline): ` +
            `**${matchVerdictText(c.paired)}**.`
        : `No paired-bootstrap verdict: the current run was not made with --compare against this baseline (npm ` +
            `run match-quality -- --compare <baseline run>/match-quality/${c.service}); the intervals below are each ` +
            `run's own.`,
      '',
    );
    const paired = new Map((c.paired?.rows ?? []).map((r) => [r.metric, r]));
    L.push(
      mdTable(
        ['metric', 'baseline', 'current', 'paired difference [95%]'],
        c.figures.map((f) => {
          const p = paired.get(f.metric);
          return [f.metric, pct(f.before), pct(f.after), p ? `${pp(p.diff)}${p.regression ? ' REGRESSION' : ''}` : '–'];
        }),
      ),
      '',
    );
    if (c.notComparable) L.push(`Matching decisions: not compared: ${c.notComparable}.`, '');
    else L.push(decisionsMarkdown(c.decisions!, c.records!, 20, `${c.service}-changed-pairs.csv`), '');
  }
  return L.join('\n');
}
