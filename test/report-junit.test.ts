/**
 * junit.xml: one suite per service and area, a <failure> whose message is the broken rule and
 * whose body carries the failure's text and the exchange it came from; an <error> for a check
 * that could not judge; and reports/latest as a relative link to the run folder.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeRunReports } from '../report/write.js';
import { makeRunFolder } from './support/report-fixture.js';

let xml: string;
let f: ReturnType<typeof makeRunFolder>;

beforeAll(async () => {
  f = makeRunFolder();
  await writeRunReports(f.folder, f.reportDir, f.run, f.results, undefined, { known: null });
  xml = readFileSync(join(f.folder, 'junit.xml'), 'utf8');
});

describe('junit.xml', () => {
  it('has one suite per service and area', () => {
    expect([...xml.matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1])).toEqual(['organization.envelope']);
    expect(xml).toContain('<property name="service" value="organization"/>');
  });

  it('gives a failure its rule as message and its text and exchange as body', () => {
    const failure = /<failure message="([^"]*)" type="([^"]*)"><!\[CDATA\[([\s\S]*?)\]\]><\/failure>/.exec(xml)!;
    expect(failure).not.toBeNull();
    expect(failure[1]).toBe('ORG-ENV-ECHO (MUST): The request auditId and trackingId are returned in the reply.');
    expect(failure[2]).toBe('ORG-ENV-ECHO');
    const body = failure[3]!;
    expect(body).toContain('  expected: "t-1"');
    expect(body).toContain('  got:      "server-made"');
    expect(body).toContain('exchange 2 of 2: POST http://127.0.0.1:9/provider-link-ws/svc/demographicsSearch');
    expect(body).toContain('"trackingId":"server-made"');
    expect(xml).toMatch(/<error message="demographicsSearch: connect ECONNREFUSED" type="CouldNotJudge">/);
  });

  it('points reports/latest at the run folder with a relative link', () => {
    expect(readlinkSync(join(f.reportDir, 'latest'))).toBe('fixture-run');
  });
});
