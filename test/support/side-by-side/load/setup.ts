/**
 * Global setup of the load fixture: provides the services' load as a conformance run's global
 * setup does (run/vitest/global-setup.ts), with "east" saturated (its waiting count far above its bound)
 * when EAST_SATURATED=1.
 */
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): void {
  const services = ['east', 'west'];
  const counters = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * 2 * services.length);
  if (process.env.EAST_SATURATED) Atomics.store(new Int32Array(counters), services.length + 0, 100);
  project.provide('serviceLoad', { services, counters, bound: 8 });
}
