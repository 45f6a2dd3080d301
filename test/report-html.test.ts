/**
 * DOM-level test of report.html (happy-dom, no browser): the key sections render, run text is
 * escaped, failing checks show the rule's text, the exchange and a curl replay without secrets,
 * the charts are inline SVG, and nothing in the page loads from elsewhere.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeRunReports } from '../report/write.js';
import { HOSTILE_TITLE, makeRunFolder } from './support/report-fixture.js';

let html: string;
let md: string;
let doc: Window['document'];

beforeAll(async () => {
  const f = makeRunFolder();
  await writeRunReports(f.folder, undefined, f.run, f.results, undefined, { known: null });
  html = readFileSync(join(f.folder, 'report.html'), 'utf8');
  md = readFileSync(join(f.folder, 'summary.md'), 'utf8');
  const window = new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
  window.document.write(html);
  doc = window.document;
});

describe('report.html', () => {
  it('has the run facts, the gate, and every key section', () => {
    for (const id of ['verdict', 'run', 'gate', 'charts', 'failures', 'coverage', 'requirements', 'latency', 'scores', 'profile']) expect(doc.getElementById(id), `#${id}`).not.toBeNull();
    expect(doc.querySelector('h1')!.textContent).toBe('Conformance run fixture-run: FAIL');
    expect(doc.getElementById('run')!.textContent).toContain('4242');
    // A MUST failure and an error gate; the EXPECT-only failure does not.
    expect(doc.querySelectorAll('#gate-gating li')).toHaveLength(2);
    expect(doc.querySelectorAll('#gate-expect-only li')).toHaveLength(1);
  });

  it('escapes run text instead of interpreting it', () => {
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    expect(doc.getElementById('failures')!.textContent).toContain(HOSTILE_TITLE);
  });

  it('shows each failing check with the rule text, the exchange and a curl replay that uses a variable, not the secret', () => {
    const failure = doc.getElementById('check-organization/envelope/echo')!;
    expect(failure).not.toBeNull();
    expect(failure.querySelector('.rules')!.textContent).toContain('The request auditId and trackingId are returned in the reply.');
    const shown = failure.querySelectorAll('details.exchange');
    expect(shown).toHaveLength(2);
    const last = shown[1]!;
    expect(last.hasAttribute('open')).toBe(true);
    expect(last.querySelector('.reply')!.textContent).toContain('server-made');
    const curl = last.querySelector('.curl')!.textContent!;
    expect(curl).toContain('"Authorization: Bearer $ORG_TOKEN"');
    expect(curl).toContain(`a'1`);
    expect(doc.querySelectorAll('#failures .failure')).toHaveLength(3);
  });

  it('never shows credentials from the URL or secret-named profile members', () => {
    for (const text of [html, md]) {
      expect(text).not.toContain('hunter2-secret');
      expect(text).not.toContain('should-not-appear');
    }
  });

  it('lists requirements per service and seed section, and the uncovered ones', () => {
    const row = doc.getElementById('req-ORG-ENV-ECHO')!.parentElement!;
    expect(row.textContent).toContain('fail');
    expect(doc.querySelector('#requirements h3.service')!.textContent).toContain('organization');
    expect(doc.querySelectorAll('#requirements h4').length).toBeGreaterThan(3);
    expect(doc.getElementById('coverage')!.textContent).toContain('Requirements with no check yet');
  });

  it('draws the three charts as inline SVG and loads nothing from elsewhere', () => {
    for (const id of ['chart-outcomes', 'chart-latency', 'chart-scores']) expect(doc.querySelector(`#${id} svg`), id).not.toBeNull();
    expect(html).not.toMatch(/<(script|link|img|iframe)\b/i);
    expect(doc.getElementById('scores')!.textContent).toContain('0.95');
  });

  it('has the same failures and gate in summary.md', () => {
    expect(md).toMatch(/^# Conformance run fixture-run: FAIL/);
    expect(md).toContain('**Gating failures** (2)');
    expect(md).toContain('"Authorization: Bearer $ORG_TOKEN"');
    expect(md).toContain('The request auditId and trackingId are returned in the reply.');
  });
});
