/**
 * DOM-level test of report.html (happy-dom, no browser, scripts off): the key sections render,
 * failures come first, run text is escaped, failing checks show rule, expected, got and the
 * exchange with a curl replay without secrets, gate entries link to their failure, passing
 * requirements are folded, each service has its state diagram, the charts are inline SVG, and
 * nothing in the page loads from elsewhere (its one script is its own, allowed by hash).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CleanupResult } from '../harness/cleanup.js';
import type { PacingFigures } from '../harness/pacing.js';
import { consoleSummary } from '../report/console-summary.js';
import type { Summary } from '../report/summary.js';
import { writeRunReports } from '../report/write.js';
import { HOSTILE_TITLE, makeRunFolder } from './support/report-fixture.js';

let html: string;
let md: string;
let summary: Summary;
const summaryOf = () => summary;
let doc: Window['document'];

/** How the fixture's organization requests were paced: throttled, paused, bound and rate lowered. */
const PACED: PacingFigures = {
  attempts: 1971,
  throttled: 20,
  transientFailures: 27,
  pausedMs: 17008,
  bound: { ceiling: 8, lowest: 3, final: 7 },
  rate: { lowest: 12, final: 20.44 },
};

beforeAll(async () => {
  const f = makeRunFolder();
  ({ summary } = await writeRunReports(f.folder, undefined, f.run, f.results, undefined, {
    known: null,
    transport: Promise.resolve({ organization: PACED }),
  }));
  html = readFileSync(join(f.folder, 'report.html'), 'utf8');
  md = readFileSync(join(f.folder, 'summary.md'), 'utf8');
  const window = new Window({
    settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true },
  });
  window.document.write(html);
  doc = window.document;
});

describe('report.html', () => {
  it('has the run facts, the gate, and every key section, failing checks first', () => {
    for (const id of [
      'verdict',
      'toc',
      'filter',
      'run',
      'gate',
      'charts',
      'failures',
      'services',
      'service-organization',
      'coverage-organization',
      'requirements-organization',
      'latency',
      'scores',
      'profile',
    ])
      expect(doc.getElementById(id), `#${id}`).not.toBeNull();
    expect(doc.querySelector('h1')!.textContent).toBe('Conformance run fixture-run: FAIL');
    expect(doc.getElementById('run')!.textContent).toContain('4242');
    expect(doc.querySelector('main > section')!.id).toBe('failures');
    // A MUST failure and an error gate; the EXPECT-only failure does not.
    expect(doc.querySelectorAll('#gate-gating li')).toHaveLength(2);
    expect(doc.querySelectorAll('#gate-expect-only li')).toHaveLength(1);
  });

  it('says per service how long it was throttled, at what bound and rate it ran, and how many attempts failed transiently', () => {
    const row = [...doc.querySelectorAll('#transport tr')]
      .map((r) => r.textContent ?? '')
      .find((t) => t.includes('organization'));
    expect(row).toBeDefined();
    for (const figure of ['1971', '27 (20)', '17.0 s', '8 / 3 / 7', '12/s / 20.44/s'])
      expect(row, figure).toContain(figure);
    expect(doc.querySelector('#toc a[href="#transport"]')).not.toBeNull();
    expect(md).toContain('## Transport');
    expect(md).toMatch(/\| organization \| 1971 \| 27 \(20\) \| 17\.0 s \| 8 \/ 3 \/ 7 \| 12\/s \/ 20\.44\/s \|/);
    expect(consoleSummary(summaryOf(), 'x')).toContain(
      'transport: 1971 attempts, 27 failed transiently (20 throttled); paused 17.0 s; in flight at most 8 (lowest 3, final 7); rate lowest 12/s, final 20.44/s',
    );
  });

  it('links every gate entry to its failure, and the table of contents to every service', () => {
    for (const a of doc.querySelectorAll('#gate li a'))
      expect(doc.getElementById(a.getAttribute('href')!.slice(1)), a.getAttribute('href')!).not.toBeNull();
    expect(doc.querySelectorAll('#gate li a')).toHaveLength(3);
    expect([...doc.querySelectorAll('#toc a')].map((a) => a.getAttribute('href'))).toContain('#service-organization');
  });

  it('escapes run text instead of interpreting it; its one script is its own, allowed by its hash', () => {
    const scripts = doc.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!;
    const hash = createHash('sha256').update(scripts[0]!.textContent!).digest('base64');
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    expect(doc.getElementById('failures')!.textContent).toContain(HOSTILE_TITLE);
    expect(html).not.toContain('<script>alert');
  });

  it('shows each failing check as rule, checked, expected, got and the exchange it came from, with a curl replay that uses a variable, not the secret', () => {
    const failure = doc.getElementById('check-organization/envelope/echo')!;
    expect(failure).not.toBeNull();
    const finding = failure.querySelector('dl.finding')!;
    expect(finding.querySelector('dd.rule')!.textContent).toContain(
      'The request auditId and trackingId are returned in the reply.',
    );
    expect(finding.querySelector('dd.checked')!.textContent).toBe('trackingId echoed');
    expect(finding.querySelector('dd.expected')!.textContent).toBe('"t-1"');
    expect(finding.querySelector('dd.got')!.textContent).toBe('"server-made"');
    expect(finding.querySelector('dd.exchange')!.textContent).toContain('2 of 2: demographicsSearch → HTTP 200');
    expect(failure.textContent).not.toMatch(/to be|Object\.is/);
    const shown = failure.querySelectorAll('details.exchange');
    expect(shown).toHaveLength(2);
    const failing = failure.querySelector('details.exchange.failing')!;
    expect(failing.querySelector('summary')!.textContent).toContain('Failing exchange 2 of 2');
    expect(failing.querySelector('.reply')!.textContent).toContain('server-made');
    const curl = failing.querySelector('.curl')!.textContent!;
    expect(curl).toContain('"Authorization: Bearer $ORG_TOKEN"');
    expect(curl).toContain(`a'1`);
    expect(doc.querySelectorAll('#failures .failure')).toHaveLength(3);
  });

  it('shows the requirements that need attention, and folds the passing ones', () => {
    const attention = doc.querySelectorAll('#requirements-organization > table tbody tr');
    expect([...attention].map((r) => r.getAttribute('data-verdict')).sort()).toEqual(['error', 'fail', 'fail', 'skip']);
    const passing = doc.querySelector('#requirements-organization details.passing')!;
    expect(passing.hasAttribute('open')).toBe(false);
    expect(passing.querySelector('tr#req-ORG-VIEWS-DEFAULT')!.getAttribute('data-verdict')).toBe('pass');
  });

  it("draws each service's state diagram with its transitions coloured by verdict", () => {
    const svg = doc.querySelector('#state-diagram-organization svg')!;
    expect(svg).not.toBeNull();
    expect(svg.querySelectorAll('g.node')).toHaveLength(4);
    // The fixture's checks cite no state-table requirement: every transition is grey and dashed.
    const edges = svg.querySelectorAll('g.edge.transition');
    expect(edges.length).toBeGreaterThanOrEqual(7);
    for (const edge of edges) expect(edge.getAttribute('class')).toContain('none');
  });

  it('never shows credentials from the URL or secret-named profile members', () => {
    for (const text of [html, md]) {
      expect(text).not.toContain('hunter2-secret');
      expect(text).not.toContain('should-not-appear');
    }
  });

  it('lists requirements per service with their seed section, and the uncovered ones', () => {
    const row = doc.getElementById('req-ORG-ENV-ECHO')!;
    expect(row.getAttribute('data-verdict')).toBe('fail');
    expect(row.textContent).toContain('organization-identity-api.md, Errors');
    expect(doc.querySelector('#service-organization h2')!.textContent).toContain('organization');
    expect(doc.getElementById('coverage-organization')!.textContent).toContain('Requirements with no check yet');
  });

  it('draws the three charts as inline SVG and loads nothing from elsewhere', () => {
    for (const id of ['chart-outcomes', 'chart-latency', 'chart-scores'])
      expect(doc.querySelector(`#${id} svg`), id).not.toBeNull();
    expect(html).not.toMatch(/<(link|img|iframe)\b|<script[^>]*\ssrc=/i);
    expect(doc.getElementById('scores')!.textContent).toContain('0.95');
  });

  it('has the same failures and gate in summary.md', () => {
    expect(md).toMatch(/^# Conformance run fixture-run: FAIL/);
    expect(md).toContain('**Gating failures** (2)');
    expect(md).toContain('"Authorization: Bearer $ORG_TOKEN"');
    expect(md).toContain('The request auditId and trackingId are returned in the reply.');
  });
});

describe('reports written while the teardown still removes records', () => {
  it('take the cleanup result once it arrives, with the same figures', async () => {
    const f = makeRunFolder();
    let arrived = false;
    const cleanup = new Promise<CleanupResult>((resolve) =>
      setTimeout(() => {
        arrived = true;
        resolve({
          sources: { attempted: 7, deleted: 5, alreadyGone: 2 },
          relationships: { attempted: 1, deleted: 1, alreadyGone: 0 },
          failures: [],
        });
      }, 50),
    );
    const { summary } = await writeRunReports(f.folder, undefined, f.run, f.results, cleanup, { known: null });
    expect(arrived).toBe(true);
    expect(summary.cleanup?.sources).toEqual({ attempted: 7, deleted: 5, alreadyGone: 2 });
    const page = readFileSync(join(f.folder, 'report.html'), 'utf8');
    expect(page).toContain('Sources: 5 hard-deleted, 2 already gone, of 7.');
    for (const id of ['chart-outcomes', 'chart-latency', 'chart-scores']) expect(page).toContain(`id="${id}"`);
  });
});

/**
 * Only a run that passed is drawn green: an interrupted run whose ended checks all passed, and an
 * INCOMPLETE run, get a banner and a Gate badge of their own colour, never the pass green.
 */
describe('the verdict colours', () => {
  const GREEN = '#2e7d32';
  /** The background colour the page's CSS gives a selector's class (the last rule naming it). */
  const colourOf = (page: string, selector: string) => {
    const css = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;
    const rules = [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)].filter((m) =>
      m[1]!.split(',').some((s) => s.trim() === selector),
    );
    return /background:([^;}]+)/.exec(rules.at(-1)?.[2] ?? '')?.[1];
  };
  const drawn = async (results: ReturnType<typeof makeRunFolder>['results'], interrupted?: boolean) => {
    const f = makeRunFolder();
    await writeRunReports(f.folder, undefined, f.run, results, undefined, {
      known: null,
      ...(interrupted
        ? {
            interrupted: () => ({
              signal: 'SIGINT' as const,
              reason: 'SIGINT to npm run conformance',
              at: f.run.startedAt,
            }),
          }
        : {}),
    });
    const page = readFileSync(join(f.folder, 'report.html'), 'utf8');
    const banner = /<header class="verdict ([\w-]+)" id="verdict"><h1>([^<]*)<\/h1>/.exec(page)!;
    const gate = /<section id="gate"><h2>Gate: <span class="badge ([\w-]+)">([^<]*)<\/span>/.exec(page)!;
    return { page, banner: { cls: banner[1]!, text: banner[2]! }, gate: { cls: gate[1]!, text: gate[2]! } };
  };
  const passing = () => makeRunFolder().results.filter((r) => r.verdict === 'pass');

  it('an interrupted run whose ended checks all passed: banner and Gate badge "interrupted", not green', async () => {
    const { page, banner, gate } = await drawn(passing(), true);
    expect(banner.text).toMatch(/INTERRUPTED by SIGINT \(exit code 130\)/);
    expect(banner.cls).toBe('interrupted');
    expect(gate).toEqual({ cls: 'interrupted', text: 'interrupted (exit code 130)' });
    expect(colourOf(page, 'header.interrupted')).not.toBe(GREEN);
    expect(colourOf(page, '.badge.interrupted')).not.toBe(GREEN);
  });

  it('an INCOMPLETE run: banner and Gate badge "incomplete", not green; a passing run is green', async () => {
    const unjudged = makeRunFolder()
      .results.filter((r) => r.verdict !== 'fail')
      .map((r) => (r.verdict === 'error' ? { ...r, couldNotJudge: true } : r));
    const incomplete = await drawn(unjudged);
    expect([incomplete.banner.cls, incomplete.gate.cls]).toEqual(['incomplete', 'incomplete']);
    expect(colourOf(incomplete.page, 'header.incomplete')).not.toBe(GREEN);
    const pass = await drawn(passing());
    expect([pass.banner.cls, pass.gate.cls]).toEqual(['pass', 'pass']);
    expect(colourOf(pass.page, 'header.pass')).toBe(GREEN);
  });
});
