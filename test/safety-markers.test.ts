/**
 * Other people's data and the run's secrets never reach anything a run writes, whatever response
 * view the deployment uses. The whole suite (all three services) runs against a reference started
 * here as a staging deployment would be configured (ORG_/PERSON_/PROVIDER_BASE_URL, a bearer token,
 * basic credentials), holding foreign records in every service whose values are distinctive
 * markers (reference/faults/foreign-data.ts: names, SSNs, e-mail addresses, native IDs, EINs,
 * NPIs, free text) and other people's activity in the notification feeds. Three view settings:
 * identityGroupedBySource always given; given only for the GROUP_BY_SOURCE view and the profile
 * asking for DEFAULT (a deployment that never fills it); and the profile asking for
 * GROUP_BY_SOURCE. Every exchange of every check is kept in full (CONFORMANCE_EXCHANGES=all), so
 * the redaction itself is tested, not the policy of keeping less. Every byte the run wrote (the run folder recursively, gzip'ed files
 * decompressed) and printed (stdout, stderr) is searched for every marker and every secret: zero
 * hits. The foreign records are left exactly as they were, and the run did meet them (redaction
 * stubs are in every service's exchanges).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOREIGN_MASK } from '../harness/foreign-values.js';
import { FOREIGN_NOTE } from '../harness/redact-foreign.js';
import { FOREIGN_MARKERS, FOREIGN_SOURCE, foreignDigest } from '../reference/faults/foreign-data.js';
import { startReference } from '../reference/server.js';
import type { GroupedBySource } from '../reference/views.js';
import type { ServiceName } from '../specs/common/model.js';
import { fileText, filesUnder, markerHits } from './support/markers.js';
import { runSuite } from './support/run-suite.js';
import { sampled } from './support/tier.js';
import escapeRegExp from 'escape-string-regexp';

const SERVICES: ServiceName[] = ['organization', 'person', 'provider'];
const escapeRe = escapeRegExp;
const ALL_CASES: Array<[string, GroupedBySource, string[]]> = [
  ['identityGroupedBySource always given, DEFAULT view', 'always', ['DEFAULT']],
  ['identityGroupedBySource never given (only for GROUP_BY_SOURCE), DEFAULT view', 'on-request', ['DEFAULT']],
  ['identityGroupedBySource given on request, GROUP_BY_SOURCE view', 'on-request', ['GROUP_BY_SOURCE']],
];

/** `npm test` runs the first view (foreign records in every reply); `npm run test:full` all three. */
const CASES = sampled(ALL_CASES, ALL_CASES.slice(0, 1));

describe('no byte a run writes or prints holds foreign data or a secret', () => {
  it.each(CASES)(
    'whole suite, all services: %s',
    async (_label, grouped, views) => {
      const ref = await startReference({ foreignData: true, groupedBySource: grouped, faults: [] });
      try {
        const digests = SERVICES.map((s) => foreignDigest(ref.stores.get(s)!));
        const profile = join(mkdtempSync(join(tmpdir(), 'cf-markers-')), 'profile.json');
        writeFileSync(profile, JSON.stringify({ responseViews: views, createDataSources: true }));
        const env = {
          ORG_BASE_URL: ref.baseUrlOf('organization'),
          ORG_TOKEN: ref.token,
          ORG_SOURCES: 'cf_test_a,cf_test_b',
          PERSON_BASE_URL: ref.baseUrlOf('person'),
          PERSON_TOKEN: ref.token,
          PERSON_USERNAME: ref.auth.username,
          PERSON_PASSWORD: ref.auth.password,
          PERSON_CUSTOMER_ID: 'reference-customer',
          PERSON_SOURCES: 'cf_test_a,cf_test_b',
          PROVIDER_BASE_URL: ref.baseUrlOf('provider'),
          PROVIDER_USERNAME: ref.auth.username,
          PROVIDER_PASSWORD: ref.auth.password,
          PROVIDER_SOURCES: 'cf_test_a,cf_test_b',
          CONFORMANCE_PROFILE: profile,
          // every exchange of every check written in full: the redaction itself is what is tested
          CONFORMANCE_EXCHANGES: 'all',
        };
        const run = await runSuite([], env, 600000);
        expect(run.summary, `the run wrote a summary:\n${run.stderr.slice(-3000)}`).toBeDefined();
        for (const s of SERVICES)
          expect(
            run.summary!.checks.filter((c) => c.service === s && c.verdict !== 'omit').length,
            `${s} checks ran`,
          ).toBeGreaterThan(50);

        const folder = join(run.reportDir, run.runId);
        const secrets = [
          ref.token,
          ref.token.split('.')[2]!,
          ref.auth.password,
          Buffer.from(`${ref.auth.username}:${ref.auth.password}`).toString('base64'),
        ];
        const markers = [...Object.values(FOREIGN_MARKERS).flat(), ...secrets];
        const hits = markerHits(folder, markers, { stdout: run.stdout, stderr: run.stderr });
        expect(
          hits.map(
            (h) =>
              `${h.where.replace(folder, '<run>')}: ${secrets.includes(h.marker) ? '<secret>' : h.marker} x${h.count}`,
          ),
          'markers and secrets in what the run wrote or printed',
        ).toEqual([]);

        // Masking never cut into a longer token (a seed, a native ID, a generated name holding a foreign word).
        const inside = new RegExp(
          `[\\p{L}\\p{N}_]${escapeRe(FOREIGN_MASK)}|${escapeRe(FOREIGN_MASK)}[\\p{L}\\p{N}_]`,
          'u',
        );
        const cut = [...filesUnder(folder).map((f) => [f, fileText(f)]), ['stdout', run.stdout]].filter(([, t]) =>
          inside.test(t!),
        );
        expect(
          cut.map(([f]) => f!.replace(folder, '<run>')),
          'texts with a mask inside a token',
        ).toEqual([]);

        // The run met the foreign records in every service: their stubs are in its exchanges.
        const exchanges = filesUnder(join(folder, 'exchanges'));
        for (const s of SERVICES)
          expect(
            exchanges.some((f) => f.includes(`${s}__`) && fileText(f).includes(FOREIGN_NOTE)),
            `${s} exchanges show redacted foreign records`,
          ).toBe(true);
        // ... and left them exactly as they were, removing every record of its own.
        expect(SERVICES.map((s) => foreignDigest(ref.stores.get(s)!))).toEqual(digests);
        for (const s of SERVICES)
          expect(
            [...ref.stores.get(s)!.records.values()]
              .filter((r) => r.source.name !== FOREIGN_SOURCE)
              .map((r) => r.source.id),
            `${s} test records left`,
          ).toEqual([]);
      } finally {
        await ref.stop();
      }
    },
    700000,
  );
});
