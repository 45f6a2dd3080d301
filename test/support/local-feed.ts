/**
 * A check against a local notification feed: `page(n)` answers searchNotifications for page n
 * (the content of a successful reply). For the tests of walking, polling and counting a feed
 * against feeds that misbehave on purpose; `closing` gathers what the test's afterEach closes.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededFaker } from '../../generators/seed.js';
import { Check } from '../../harness/check.js';
import type { Profile } from '../../harness/profile.js';
import type { RunContext } from '../../harness/run.js';
import type { ServiceName } from '../../specs/common/model.js';
import { localClient } from './local-client.js';

export async function feedCheck(
  page: (n: number) => Record<string, unknown>,
  check: { service: ServiceName; verifies: string[]; profile: Profile; run: RunContext },
  closing: Array<() => Promise<unknown>>,
): Promise<Check> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const content = page(JSON.parse(body).content.pageNumber as number);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, content }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const client = localClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, check.profile, check.run, {
    timeoutMs: 2000,
    maxInFlight: 2,
    retryBudgetMs: 0,
  });
  closing.push(
    () => client.close(),
    () => new Promise((r) => server.close(r)),
  );
  return new Check(check.service, check.verifies, seededFaker(1), client, check.profile, check.run);
}
