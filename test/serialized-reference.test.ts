/**
 * The serializing reference of `npm run bench:latency -- --deployment serialized`
 * (reference/variants/serialized.ts) and the reference's requests in flight per second
 * (reference/occupancy.ts), which the bench's floor and occupancy lines are made of: requests
 * sent at once are handled one after another under one lock shared by the services, each for its
 * operation's handling time; the lock's time, its queue and the requests in flight are counted
 * per service. Red if the lock were per service or absent, if turns overlapped, or if the
 * occupancy lost time at second boundaries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Occupancy } from '../reference/occupancy.js';
import { DEFAULT_HANDLING_MS, handlingKind, parseHandlingTimes, serialized } from '../reference/variants/serialized.js';
import { type ReferenceCaller, newSource, referenceWith } from './support/reference-calls.js';

let open: ReferenceCaller[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.stop()));
  open = [];
});

describe('the serializing reference', () => {
  it('classes operations and reads handling times, refusing what is not a kind with a number of ms', () => {
    expect(
      [
        'demographicsSearch',
        'demographicsQuery',
        'postIdentity',
        'mergeIdentities',
        'nativeIdQuery',
        'searchNotifications',
      ].map(handlingKind),
    ).toEqual(['search', 'search', 'post', 'change', 'read', 'read']);
    expect(parseHandlingTimes('')).toEqual(DEFAULT_HANDLING_MS);
    expect(parseHandlingTimes('search=10, read=0.25')).toEqual({ ...DEFAULT_HANDLING_MS, search: 10, read: 0.25 });
    expect(() => parseHandlingTimes('serch=10')).toThrow('got "serch=10"');
    expect(() => parseHandlingTimes('read=-1')).toThrow('ms from 0 to 1000');
  });

  it('gives each request a turn of its handling time after the turn before it, across services', async () => {
    let clock = 0;
    const turns: Array<{ service: string; startMs: number; waitedMs: number; handlingMs: number }> = [];
    const [hook] = serialized(
      { search: 6, post: 5, change: 3, read: 0.5 },
      (t) => turns.push(t),
      () => clock,
    );
    const info = (service: string, operation: string) =>
      ({ service, operation }) as Parameters<NonNullable<typeof hook.intercept>>[0];
    // Three requests arrive at once (the timers they wait on are real, so the clock stands still here).
    await Promise.all([
      hook!.intercept!(info('organization', 'demographicsSearch')),
      hook!.intercept!(info('provider', 'nativeIdQuery')),
      hook!.intercept!(info('person', 'postIdentity')),
    ]);
    expect(turns).toEqual([
      { service: 'organization', startMs: 0, waitedMs: 0, handlingMs: 6 },
      { service: 'provider', startMs: 6, waitedMs: 6, handlingMs: 0.5 },
      { service: 'person', startMs: 6.5, waitedMs: 6.5, handlingMs: 5 },
    ]);
    // A request arriving once the lock is free waits for nothing.
    clock = 100;
    await hook!.intercept!(info('person', 'mergeIdentities'));
    expect(turns.at(-1)).toEqual({ service: 'person', startMs: 100, waitedMs: 0, handlingMs: 3 });
  });

  it('handles requests to two services one at a time and counts the lock per service', async () => {
    const c = await referenceWith({ serialized: { search: 40, post: 40, change: 40, read: 40 } });
    open.push(c);
    const started = Date.now();
    const replies = await Promise.all([
      ...Array.from({ length: 3 }, () => c.call('nativeIdQuery', { source: newSource() })),
      ...Array.from({ length: 3 }, () => c.call('nativeIdQuery', { source: newSource() }, { service: 'provider' })),
    ]);
    // Six turns of 40 ms one after another: 240 ms at least; in parallel (no lock, or one per service) 40 to 120.
    expect(Date.now() - started).toBeGreaterThanOrEqual(235);
    expect(replies.map((r) => r.body?.trackingId)).toEqual(Array(6).fill('track-1'));
    const { waiting, handling } = c.ref.lockMs();
    expect(handling).toMatchObject({ organization: 120, provider: 120, person: 0 });
    // Waits of 0, 40, ... 200 ms for the six turns at most (less the time between their arrivals,
    // which a busy machine stretches), whichever service came first; some request waited.
    const waited = waiting.organization + waiting.provider;
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(600 + 1e-6);
    const occupancy = c.ref.occupancy();
    expect(occupancy.arrivals.organization?.reduce((a, b) => a + b, 0)).toBe(3);
    expect(occupancy.lockBusy.reduce((a, b) => a + b, 0)).toBeCloseTo(0.24, 2);
  });

  it('the plain reference takes no lock', async () => {
    const c = await referenceWith({});
    open.push(c);
    await Promise.all(Array.from({ length: 3 }, () => c.call('nativeIdQuery', { source: newSource() })));
    expect(c.ref.lockMs().handling.organization).toBe(0);
    expect(c.ref.occupancy().lockBusy).toEqual([]);
  });
});

describe('requests in flight per second', () => {
  it('averages each service over each second, spreading a request over the seconds it spans', () => {
    let clock = 1000;
    const o = new Occupancy(() => clock);
    o.enter('provider'); // 1000
    clock = 1500;
    o.enter('provider');
    o.enter('person');
    clock = 2500;
    o.leave('provider'); // provider: 2 from 1500 to 2500, 1 on
    o.leave('person');
    clock = 3000;
    o.leave('provider');
    const p = o.perSecond();
    // Second 0 (1000-2000): 1 × 500 + 2 × 500 = 1.5; second 1: 2 × 500 + 1 × 500 = 1.5.
    expect(p.inFlight.provider).toEqual([1.5, 1.5]);
    expect(p.inFlight.person).toEqual([0.5, 0.5]);
    expect(p.arrivals.provider).toEqual([2, 0]);
  });

  it('loses no time at a boundary the clock lands on through rounding', () => {
    // origin + 11 s in floating point: (t - origin) / 1000 falls just below 11, so the division
    // names second 10, whose end is t itself (an endless loop once).
    const origin = 59739.55273084148;
    let clock = origin;
    const o = new Occupancy(() => clock);
    o.enter('organization');
    clock = origin + 11000;
    expect(Math.floor((clock - origin) / 1000)).toBe(10);
    o.leave('organization');
    o.enter('organization');
    clock = origin + 12000;
    o.leave('organization');
    const bins = o.perSecond().inFlight.organization!;
    expect(bins.reduce((a, b) => a + b, 0)).toBeCloseTo(12, 9);
  });
});
