/**
 * busy: other users write to the deployment while the run goes on, as on a shared staging deployment. Per service,
 * about `perSecond` writes a second under a source that is not a test source (OTHER_USERS_SOURCE), each one of:
 * - a new record with common names (first and last names the suite's own generators also draw);
 * - an update of one of those records (a re-post of its source with a changed phone number);
 * - a near duplicate of one of those records (another native ID, the same data but its phone numbers), which the
 *   service's matching links into that record's identity;
 * - a namesake of a record the run posted: its names (or, where those alone would score too high, its family name, or
 *   its organization name's first word), everything else of its own (address, phone, date of birth, identifiers), so
 *   the run's searches find it beside the run's record, scored below NAMESAKE_SCORE_BELOW (under any threshold a drawn
 *   deployment uses), so it joins no identity of the run.
 * Every write goes through the reference's own postIdentity, so it is matched, stamps a notification (CREATE, MATCH or
 * UPDATE) into searchNotifications, and reaches a lagging search index like any write.
 *
 * Other users never write the run's own values beyond names: the run's generated data (random names and addresses,
 * fictional SSNs, EINs and NPIs) is its own, and only that lets a run tell a deleted source's data from someone else's
 * when an identity does not group its data by source (organization-identity-api.md, Resources, Search result:
 * "identityGroupedBySource | array | no"). A record of another user that carried the run's values and joined its
 * identity would make "the data of a deleted source is gone" unverifiable (docs/detection.md, "Drawn deployments").
 *
 * The writes are made when the service handles a request (those due since the last one, at most two seconds' worth), so
 * an idle reference does no work, and at most MAX_RECORDS records per service are created (then updates only, which
 * need no matching), so a long detection run stays small and cheap.
 *
 * The seeds describe one deployment with records of many sources and leave who else writes open: "Each source record is
 * identified by a source name plus an identifier within that source" (organization-identity-api.md, What the service
 * does); the feed covers the changes of a date range (Events: "searchNotifications returns a paginated feed of
 * notifications for a date range"). reference/faults/foreign-data.ts loads the same kind of data once; this is it
 * arriving during the run.
 */
import type { ServiceName } from '../../specs/common/model.js';
import { DEFAULT_MEMBERS, type HandlerContext } from '../handlers/types.js';
import type { ReferenceHook } from '../hooks.js';
import { REFERENCE_SERVICES } from '../services.js';
import { type ServiceStore, keyOf } from '../store.js';
import { noteIndexChanges } from './lag.js';

/** The source other users write under: not a test source of any profile. */
export const OTHER_USERS_SOURCE = 'partner_crm';
/** Most records other users create per service (later writes update them). */
export const MAX_RECORDS = 600;
/** Most writes made at once (the backlog of a quiet spell is dropped beyond it), in seconds of the rate. */
const MAX_BACKLOG_SECONDS = 2;
/** How many of the run's latest posts a namesake may copy the names of. */
const RECENT = 40;
/** A namesake scores below this against the run's record it copies the names of (drawn thresholds start at 0.6). */
export const NAMESAKE_SCORE_BELOW = 0.55;

type Identity = Record<string, unknown>;
export type OtherWrite = 'new' | 'update' | 'near-duplicate' | 'namesake';
/** Odds of each kind of write (cumulative order as listed). */
const KINDS: Array<[OtherWrite, number]> = [
  ['new', 0.35],
  ['update', 0.25],
  ['near-duplicate', 0.25],
  ['namesake', 0.15],
];

const FIRST = [
  'James',
  'Mary',
  'John',
  'Patricia',
  'Robert',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'Maria',
  'William',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Wilson',
];
const ORG_WORDS = [
  'Community',
  'Riverside',
  'Valley',
  'Main Street',
  'Lakeside',
  'United',
  'Family',
  'Summit',
  'Pioneer',
  'Heritage',
];
const ORG_KINDS = [
  'Health Center',
  'Medical Group',
  'Dental Care',
  'Pharmacy',
  'Clinic',
  'Family Practice',
  'Services',
];
const STREETS = ['Main St', 'Oak Ave', 'Maple Dr', 'Park Rd', 'Cedar Ln', 'Elm St', 'Washington Ave'];
const CITIES: Array<[string, string, string]> = [
  ['Springfield', 'IL', '62701'],
  ['Franklin', 'TN', '37064'],
  ['Greenville', 'SC', '29601'],
  ['Madison', 'WI', '53703'],
  ['Clinton', 'IA', '52732'],
];

/** Builds the identities other users post, from a source of uniform numbers. */
export class CommonIdentities {
  constructor(private readonly random: () => number) {}

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)]!;
  }

  private digits(n: number): string {
    return Array.from({ length: n }, () => Math.floor(this.random() * 10)).join('');
  }

  phone(): string {
    return `555${this.digits(7)}`;
  }

  private address() {
    const [city, state, postalCode] = this.pick(CITIES);
    return { line1: `${1 + Math.floor(this.random() * 999)} ${this.pick(STREETS)}`, city, state, postalCode };
  }

  /** A new identity of the service with common names (without its source reference). */
  identity(service: ServiceName): Identity {
    const first = this.pick(FIRST);
    const last = this.pick(LAST);
    if (service === 'person')
      return {
        names: [{ firstName: first, lastName: last }],
        addresses: [{ type: 'home', ...this.address(), country: 'USA' }],
        datesOfBirth: [
          {
            dateOfBirth:
              `19${50 + Math.floor(this.random() * 50)}-0${1 + Math.floor(this.random() * 9)}-` +
              `1${Math.floor(this.random() * 9)}`,
          },
        ],
        // The never-issued area range 900-999 (as the suite's generators): SSN-shaped, never a real one.
        ssns: [{ ssn: `9${this.digits(2)}-${this.digits(2)}-${this.digits(4)}` }],
        genders: [{ gender: this.random() < 0.5 ? 'F' : 'M' }],
        phoneNumbers: [{ countryCode: '+1', number: this.phone(), type: 'home' }],
      };
    if (service === 'provider') {
      const facility = this.random() < 0.4;
      return {
        ...(facility
          ? { organizationNames: [{ legalBusinessName: `${this.pick(ORG_WORDS)} ${this.pick(ORG_KINDS)}` }] }
          : { names: [{ first, last, credential: this.pick(['MD', 'DO', 'NP']) }] }),
        addresses: [{ addressName: 'Main Office', addressType: 'work', ...this.address(), country: 'USA' }],
        phoneNumbers: [{ number: this.phone(), type: 'work' }],
        npis: [{ npi: `1${this.digits(9)}`, entityTypeCode: facility ? '2' : '1' }],
      };
    }
    return {
      organizationNames: [{ legalBusinessName: `${this.pick(ORG_WORDS)} ${this.pick(ORG_KINDS)}` }],
      addresses: [{ ...this.address(), country: 'US' }],
      phoneNumbers: [{ number: this.phone(), type: 'WORK' }],
    };
  }
}

/** The posted identity's data without its source references (what a copy keeps). */
const withoutSources = (data: Identity): Identity =>
  Object.fromEntries(Object.entries(data).filter(([k]) => k !== 'sources'));

/** One service's other users: their records, the run's latest posts, and the writes still due. */
export class OtherUsers {
  /** Native IDs of the records they created, in order. */
  readonly created: string[] = [];
  /** Writes made, per kind. */
  readonly made: Record<OtherWrite, number> = { new: 0, update: 0, 'near-duplicate': 0, namesake: 0 };
  private readonly recent: string[] = [];
  private last: number | undefined;
  private readonly build: CommonIdentities;

  constructor(
    readonly store: ServiceStore,
    private readonly perSecond: number,
    private readonly random: () => number,
    private readonly now: () => number,
  ) {
    this.build = new CommonIdentities(random);
  }

  /** Remembers a record the run posted (a namesake may copy its names). */
  sawPost(key: string): void {
    if (this.store.records.get(key)?.source.name === OTHER_USERS_SOURCE) return;
    this.recent.push(key);
    if (this.recent.length > RECENT) this.recent.shift();
  }

  /** Makes the writes due since the last call (the first call only starts the clock). */
  catchUp(matcher: HandlerContext['matcher']): void {
    const t = this.now();
    if (this.last === undefined) {
      this.last = t;
      return;
    }
    const due = Math.min(
      Math.floor(((t - this.last) * this.perSecond) / 1000),
      Math.ceil(this.perSecond * MAX_BACKLOG_SECONDS),
    );
    if (due <= 0) return;
    this.last = due >= this.perSecond * MAX_BACKLOG_SECONDS ? t : this.last + (due * 1000) / this.perSecond;
    for (let i = 0; i < due; i++) this.write(matcher);
  }

  private kind(): OtherWrite {
    let r = this.random();
    for (const [kind, odds] of KINDS) if ((r -= odds) < 0) return kind;
    return 'new';
  }

  /**
   * One write of a drawn kind; a kind that cannot be made (nothing to update or copy yet, a namesake that would score
   * too high) posts a new record instead. Returns the kind written (undefined: none, MAX_RECORDS reached and nothing to
   * update).
   */
  write(matcher: HandlerContext['matcher'], kind: OtherWrite = this.kind()): OtherWrite | undefined {
    const full = this.created.length >= MAX_RECORDS;
    const theirs = () => this.store.get({ name: OTHER_USERS_SOURCE, id: this.pick(this.created) });
    if ((kind === 'update' || full) && this.created.length) {
      const r = theirs();
      if (r && r.state === 'active') {
        const data = {
          ...withoutSources(r.data),
          phoneNumbers: [{ ...((r.data.phoneNumbers as Identity[])?.[0] ?? {}), number: this.build.phone() }],
        };
        return this.post(matcher, 'update', r.source.id, data);
      }
    }
    if (full) return undefined;
    if (kind === 'near-duplicate' && this.created.length) {
      const r = theirs();
      if (r) return this.post(matcher, kind, this.nextId(), this.leaveOut(withoutSources(r.data), ['phoneNumbers']));
    }
    if (kind === 'namesake' && this.recent.length) {
      const r = this.store.records.get(this.pick(this.recent));
      const data = r && r.state === 'active' ? this.namesakeOf(r.data, matcher) : undefined;
      if (data) return this.post(matcher, kind, this.nextId(), data);
    }
    return this.post(matcher, 'new', this.nextId(), this.build.identity(this.store.service));
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)]!;
  }

  /**
   * A new identity of the service with the names of `data` (person and practitioner names, organization names), or,
   * where those alone would score NAMESAKE_SCORE_BELOW or more against `data`, with part of them (the family name, or
   * an organization name's first word with another kind of business); undefined when neither scores low enough, or
   * `data` has no names.
   */
  namesakeOf(data: Identity, matcher: HandlerContext['matcher']): Identity | undefined {
    const names = (['names', 'organizationNames'] as const).filter(
      (k) => Array.isArray(data[k]) && (data[k] as unknown[]).length,
    );
    if (!names.length) return undefined;
    const fresh = this.build.identity(this.store.service);
    const npis = data.npis as Identity[] | undefined;
    const withNames = (part: boolean): Identity => {
      const out: Identity = { ...fresh };
      delete out.names;
      delete out.organizationNames;
      for (const k of names) out[k] = (data[k] as Identity[]).slice(0, 1).map((n) => this.nameOf(n, part));
      // A practitioner's names with a facility's NPI (or the reverse) would be another kind: keep the copied kind's.
      if (Array.isArray(out.npis) && npis?.[0]?.entityTypeCode)
        out.npis = [{ ...(out.npis as Identity[])[0], entityTypeCode: npis[0].entityTypeCode }];
      return out;
    };
    return [withNames(false), withNames(true)].find((c) => matcher.score(c, data) < NAMESAKE_SCORE_BELOW);
  }

  /**
   * The name members of one name object: all of them, or (`part`) the family name or an organization name's first word.
   */
  private nameOf(n: Identity, part: boolean): Identity {
    const names = Object.fromEntries(
      Object.entries(n).filter(([m]) => /name|first|last|middle|credential/i.test(m) && m !== 'sources'),
    );
    if (!part) return names;
    if (typeof names.legalBusinessName === 'string')
      return { legalBusinessName: `${names.legalBusinessName.split(' ')[0]} ${this.pick(ORG_KINDS)}` };
    const first = this.pick(FIRST);
    return Object.fromEntries(
      Object.entries(names)
        .filter(([m]) => !/middle/i.test(m))
        .map(([m, v]) => [m, /first/i.test(m) ? first : v]),
    );
  }

  private nextId(): string {
    return `PCRM-${this.store.service.slice(0, 3).toUpperCase()}-${100001 + this.created.length}`;
  }

  private leaveOut(data: Identity, members: string[]): Identity {
    return Object.fromEntries(Object.entries(data).filter(([k]) => !members.includes(k)));
  }

  private post(matcher: HandlerContext['matcher'], kind: OtherWrite, nativeId: string, data: Identity): OtherWrite {
    const source = { name: OTHER_USERS_SOURCE, id: nativeId };
    const handler = REFERENCE_SERVICES[this.store.service]!.handlers.postIdentity!;
    const ctx: HandlerContext = {
      store: this.store,
      content: { identity: { ...data, sources: [source] } },
      envelope: {},
      matcher,
      faults: new Set(),
      members: DEFAULT_MEMBERS,
    };
    const before = this.store.get(source)?.linkId;
    handler(ctx);
    if (kind !== 'update') this.created.push(nativeId);
    this.made[kind]++;
    // The identity it joined or left changed too: a lagging index must see both.
    const after = this.store.get(source)?.linkId;
    const keys = [...this.store.records.values()]
      .filter((r) => r.linkId === after || r.linkId === before)
      .map((r) => r.key);
    noteIndexChanges(this.store, keys);
    return kind;
  }
}

/**
 * The busy variant's hooks: per service store, other users writing about `perSecond` records a second while the service
 * handles requests. `random` and `now` are for tests.
 */
export function busy(
  perSecond: number,
  random: () => number = Math.random,
  now: () => number = Date.now,
): ReferenceHook[] {
  // One reference's stores (the hooks of a VariantSet belong to one reference).
  const others = new Map<ServiceName, OtherUsers>();
  return [
    {
      setupStore: (store) => {
        if (REFERENCE_SERVICES[store.service]?.handlers.postIdentity)
          others.set(store.service, new OtherUsers(store, perSecond, random, now));
      },
      handler: (next, ctx, operation) => {
        // ctx.store may be a view (a lagging index, a delayed feed): other users write to the service's own store.
        const users = others.get(ctx.store.service);
        users?.catchUp(ctx.matcher);
        const out = next(ctx);
        if (operation === 'postIdentity') {
          const s = (ctx.content?.identity?.sources?.[0] ?? ctx.content?.source) as
            | { name?: string; id?: string }
            | undefined;
          if (s?.name && s.id) users?.sawPost(keyOf(s));
        }
        return out;
      },
    },
  ];
}
