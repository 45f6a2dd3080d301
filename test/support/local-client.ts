/**
 * A ServiceClient of the organization service at a local test server (bearer token, test source
 * cf_test_a, not embedded), for the tests of the transport, pacing and judgement against servers
 * that misbehave on purpose.
 */
import { type ClientOptions, ServiceClient } from '../../harness/client.js';
import type { Profile } from '../../harness/profile.js';
import type { RunContext } from '../../harness/run.js';

export function localClient(
  url: string,
  profile: Profile,
  run: RunContext,
  options: ClientOptions,
  servicePath = '/provider-link-ws/svc',
): ServiceClient {
  return new ServiceClient(
    {
      service: 'organization',
      baseUrl: url,
      servicePath,
      auth: { scheme: 'bearer', token: 'aaaa.bbbb.cccc' },
      sources: ['cf_test_a'],
      embedded: false,
    },
    profile,
    run,
    options,
  );
}
