/**
 * Where bench:latency --profile puts the test worker's CPU time (bench/worker-profile.ts): each
 * sample goes to the part of the first frame, from the sampled function toward the root, that a
 * part claims; a sample no part claims is 'other'.
 */
import { describe, expect, it } from 'vitest';
import { type CpuProfile, profileParts } from '../bench/worker-profile.js';

const ROOT = 'file:///work/project';
/** A profile of a call tree given as [id, parent id, function name, url], with one sample per entry of `samples` (2 ms each). */
function profile(frames: Array<[number, number | undefined, string, string]>, samples: number[]): CpuProfile {
  return {
    nodes: frames.map(([id, , functionName, url]) => ({
      id,
      callFrame: { functionName, url },
      children: frames.filter(([, p]) => p === id).map(([child]) => child),
    })),
    samples,
    timeDeltas: [0, ...samples.map(() => 2000)],
  };
}

describe('profileParts', () => {
  it('gives each sample to the nearest frame a part claims, from the sampled function up', () => {
    const p = profile(
      [
        [1, undefined, '(root)', ''],
        [2, 1, '(idle)', ''],
        [3, 1, '(garbage collector)', ''],
        [4, 1, 'call', `${ROOT}/harness/check.ts`],
        // Validation called by a check: the validator's frame is nearer than the check's.
        [5, 4, 'contentViolations', `${ROOT}/harness/contract.ts`],
        [6, 5, 'validate23', ''],
        // The transport's attempt parses the reply in its own frame; undici below it is the HTTP client.
        [7, 4, 'once', `${ROOT}/harness/transport.ts`],
        [8, 7, 'request', `${ROOT}/node_modules/undici/lib/api/api-request.js`],
        [9, 7, 'registerForeignIn', `${ROOT}/harness/redact-foreign.ts`],
        [10, 1, 'walk', `${ROOT}/scenarios/shared/walk/walk.ts`],
        [11, 1, 'somethingElse', 'node:internal/timers'],
      ],
      [2, 2, 3, 6, 6, 5, 7, 8, 9, 10, 11],
    );
    expect(profileParts(p)).toEqual({
      idle: 4,
      'garbage collection': 2,
      'reply: validation': 6,
      'reply: parsing': 2,
      'HTTP client (undici)': 2,
      'reply: redaction': 2,
      'checks (scenarios, specs)': 2,
      other: 2,
    });
  });
});
