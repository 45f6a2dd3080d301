/**
 * `npm run reference -- [--port N] [--faults a,b] [--variants name[=value],...] [--latency-ms N] [--jitter-ms N]`:
 * starts the embedded reference deployment alone on 127.0.0.1 (the given port or a free one) and
 * prints the base URL, a valid bearer token and the basic credentials, so curl or another client
 * can be pointed at it. Variants (reference/variants) and latency default to REFERENCE_VARIANTS,
 * REFERENCE_LATENCY_MS and REFERENCE_JITTER_MS. A bad value: one line naming it, exit code 2.
 */
import { parseArgs } from 'node:util';
import { SERVICES } from '../../specs/services.js';
import { startReference } from '../../reference/server.js';
import { REFERENCE_SERVICES } from '../../reference/services.js';
import { ReferenceSettingError, parseVariantList } from '../../reference/variants/registry.js';
import { REFERENCE_SOURCES } from '../global-setup.js';

const usage = 'usage: npm run reference -- [--port N] [--faults name,name] [--variants name[=value],...] [--latency-ms N] [--jitter-ms N]';
let values: { port?: string; faults?: string; variants?: string; 'latency-ms'?: string; 'jitter-ms'?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: { port: { type: 'string' }, faults: { type: 'string' }, variants: { type: 'string' }, 'latency-ms': { type: 'string' }, 'jitter-ms': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: false,
  }));
} catch (e) {
  console.error(`reference: ${(e as Error).message}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`reference: --port: expected an integer from 0 to 65535, got ${JSON.stringify(values.port)}`);
  process.exit(2);
}
const ms = (flag: string, raw: string | undefined) => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 0 || n > 60000) {
    console.error(`reference: --${flag}: expected an integer number of ms from 0 to 60000, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
};
let ref: Awaited<ReturnType<typeof startReference>>;
try {
  ref = await startReference({
    port,
    faults: values.faults?.split(',').filter(Boolean),
    ...(values.variants !== undefined ? { variants: parseVariantList(values.variants) } : {}),
    latencyMs: ms('latency-ms', values['latency-ms']),
    jitterMs: ms('jitter-ms', values['jitter-ms']),
  });
} catch (e) {
  if (e instanceof ReferenceSettingError || (e as Error).name === 'UnknownFault') {
    console.error(`reference: ${(e as Error).message}`);
    process.exit(2);
  }
  throw e;
}
const lines = [`Reference deployment listening on ${ref.url}`];
for (const spec of Object.values(SERVICES)) if (REFERENCE_SERVICES[spec.name]) lines.push(`  ${spec.name}: ${ref.baseUrlOf(spec.name)}${spec.servicePath}/<operation>  (${spec.envPrefix}_BASE_URL=${ref.baseUrlOf(spec.name)})`);
lines.push(
  `Bearer token (valid 12 h): ${ref.token}`,
  `Basic credentials: ${ref.auth.username} / ${ref.auth.password}`,
  `Test source names it accepts: ${REFERENCE_SOURCES.join(',')}`,
  '',
  'Run the suite against it from another terminal:',
  `  ORG_BASE_URL=${ref.url} ORG_TOKEN=${ref.token} ORG_SOURCES=${REFERENCE_SOURCES.join(',')} npm run conformance`,
  'Press Ctrl+C to stop.',
);
console.log(lines.join('\n'));
const stop = () => void ref.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
