/**
 * `npm run reference -- [--port N] [--faults a,b]`: starts the embedded reference deployment
 * alone on 127.0.0.1 (the given port or a free one) and prints the base URL, a valid bearer
 * token and the basic credentials, so curl or another client can be pointed at it.
 */
import { parseArgs } from 'node:util';
import { SERVICES } from '../../specs/services.js';
import { startReference } from '../../reference/server.js';
import { REFERENCE_SERVICES } from '../../reference/services.js';
import { REFERENCE_SOURCES } from '../global-setup.js';

const { values } = parseArgs({
  options: { port: { type: 'string' }, faults: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  allowPositionals: false,
});
if (values.help) {
  console.log('usage: npm run reference -- [--port N] [--faults name,name]');
  process.exit(0);
}
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`reference: --port: expected an integer from 0 to 65535, got ${JSON.stringify(values.port)}`);
  process.exit(2);
}
const ref = await startReference({ port, faults: values.faults?.split(',').filter(Boolean) });
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
