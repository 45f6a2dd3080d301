/**
 * `npm run reference -- [--port N] [--faults a,b] [--variants name[=value],...] [--latency-ms N] [--jitter-ms N]`:
 * starts the embedded reference deployment alone on 127.0.0.1 (the given port or a free one) and prints the base URL, a
 * valid bearer token, the basic credentials and two ready-to-run curl commands (postIdentity and demographicsSearch of
 * the organization service, run/reference-requests.ts), so curl or another client can be pointed at it. Faults,
 * variants and latency default to REFERENCE_FAULTS, REFERENCE_VARIANTS, REFERENCE_LATENCY_MS and REFERENCE_JITTER_MS.
 * Exit codes: 0 stopped by Ctrl+C; 2 a bad argument or setting (one line, before it starts).
 */
import { SettingsError, checkSettingNames } from '../../harness/config.js';
import { SERVICES } from '../../specs/services.js';
import { startReference } from '../../reference/server.js';
import { REFERENCE_SERVICES } from '../../reference/services.js';
import { ReferenceSettingError, referenceSettings } from '../../reference/settings.js';
import { parseVariantList } from '../../reference/variants/registry.js';
import { command, integer, parseArguments, usageError } from '../command.js';
import { REFERENCE_SOURCES } from '../deployments.js';
import { exampleRequests } from '../reference-requests.js';

const program = command({
  name: 'reference',
  summary:
    'Starts the embedded reference deployment alone and prints its base URL, a bearer token, basic credentials ' +
    'and two ready-to-run curl commands (postIdentity, demographicsSearch).',
  settings: [
    'REFERENCE_FAULTS=a,b                 named faults to switch on (npm run detection -- --list)',
    'REFERENCE_FOREIGN_DATA=1             load identities of a non-test source in every service',
    'REFERENCE_GROUPED_BY_SOURCE=on-request  identityGroupedBySource only for the GROUP_BY_SOURCE view',
    'REFERENCE_MATCH_THRESHOLD=0.9        match threshold of every matcher',
    'REFERENCE_VARIANTS=a,b=v             legitimate variants to switch on (npm run detection -- --list)',
    'REFERENCE_LATENCY_MS, REFERENCE_JITTER_MS  delay before every reply, ms (rehearse a slow target)',
  ],
  exitCodes: { 0: 'stopped (Ctrl+C)', 2: 'bad argument or setting' },
  examples: [
    'npm run reference',
    'npm run reference -- --port 8080',
    'npm run reference -- --faults merge-no-unify',
    'npm run reference -- --variants search-lag=1500 --latency-ms 50',
    'REFERENCE_FOREIGN_DATA=1 npm run reference',
  ],
})
  .option('--port <n>', 'port to listen on (default: a free one)', integer(0, 65535), 0)
  .option('--faults <names>', 'comma list of fault names (instead of REFERENCE_FAULTS)')
  .option('--variants <specs>', 'comma list of variants, name or name=value (instead of REFERENCE_VARIANTS)')
  .option('--latency-ms <n>', 'delay before every reply, ms (instead of REFERENCE_LATENCY_MS)')
  .option('--jitter-ms <n>', 'extra random delay up to this many ms (instead of REFERENCE_JITTER_MS)');
parseArguments(program);
const values = program.opts<{
  port: number;
  faults?: string;
  variants?: string;
  latencyMs?: string;
  jitterMs?: string;
}>();

const { port } = values;
try {
  checkSettingNames();
  referenceSettings({
    ...process.env,
    ...(values.faults !== undefined ? { REFERENCE_FAULTS: values.faults } : {}),
    ...(values.variants !== undefined ? { REFERENCE_VARIANTS: values.variants } : {}),
    ...(values.latencyMs !== undefined ? { REFERENCE_LATENCY_MS: values.latencyMs } : {}),
    ...(values.jitterMs !== undefined ? { REFERENCE_JITTER_MS: values.jitterMs } : {}),
  });
} catch (e) {
  if (!(e instanceof SettingsError || e instanceof ReferenceSettingError)) throw e;
  usageError(
    program,
    values.faults !== undefined &&
      e instanceof ReferenceSettingError &&
      e.message.startsWith('Setting REFERENCE_FAULTS')
      ? e.message.replace('Setting REFERENCE_FAULTS', '--faults')
      : e.message,
  );
}
const ref = await startReference({
  port,
  ...(values.faults !== undefined ? { faults: values.faults.split(',').filter(Boolean) } : {}),
  ...(values.variants !== undefined ? { variants: parseVariantList(values.variants) } : {}),
  ...(values.latencyMs !== undefined ? { latencyMs: Number(values.latencyMs) } : {}),
  ...(values.jitterMs !== undefined ? { jitterMs: Number(values.jitterMs) } : {}),
});
const lines = [`Reference deployment listening on ${ref.url}`];
for (const spec of Object.values(SERVICES))
  if (REFERENCE_SERVICES[spec.name])
    lines.push(
      `  ${spec.name}: ${ref.baseUrlOf(spec.name)}${spec.servicePath}/<operation>  ` +
        `(${spec.envPrefix}_BASE_URL=${ref.baseUrlOf(spec.name)})`,
    );
const requests = exampleRequests(ref.baseUrlOf('organization'), ref.token, REFERENCE_SOURCES[0]!);
lines.push(
  `Bearer token (valid 12 h): ${ref.token}`,
  `Basic credentials: ${ref.auth.username} / ${ref.auth.password}`,
  `Test source names it accepts: ${REFERENCE_SOURCES.join(',')}`,
  '',
  'Post an organization identity:',
  `  ${requests.postIdentity}`,
  'Search with its data (it comes back first):',
  `  ${requests.demographicsSearch}`,
  '',
  'Run the suite against it from another terminal:',
  `  ORG_BASE_URL=${ref.url} ORG_TOKEN=${ref.token} ORG_SOURCES=${REFERENCE_SOURCES.join(',')} npm run conformance`,
  'Press Ctrl+C to stop.',
);
console.log(lines.join('\n'));
const stop = () => void ref.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
