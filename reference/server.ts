/**
 * The embedded reference deployment: one node:http server, in memory, serving every registered service at its
 * documented path, routed from the operations tables. Requests are validated against the operation's request schema;
 * replies use the response envelope with auditId and trackingId echoed. Listens on 127.0.0.1 only.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceName } from '../specs/common/model.js';
import { SERVICES } from '../specs/services.js';
import { ReferenceAuth } from './auth.js';
import { activeFaults } from './faults/registry.js';
import { foreignActivity, loadForeignData } from './faults/foreign-data.js';
import { DEFAULT_MEMBERS, type HandlerContext, Rejection } from './handlers/types.js';
import { HookSet } from './hooks.js';
import { type VariantSpec, VariantSet } from './variants/registry.js';
import { latency, latencySettings } from './variants/transport.js';
import { type HandlingTimes, type Turn, serialized } from './variants/serialized.js';
import { Occupancy, type PerSecond } from './occupancy.js';
import { REFERENCE_SERVICES } from './services.js';
import { referenceSettings } from './settings.js';
import { ServiceStore } from './store.js';
import { type GroupedBySource, applyGroupedView } from './views.js';

export interface ReferenceOptions {
  port?: number;
  host?: string;
  /** Named faults to switch on (see reference/faults). */
  faults?: Iterable<string>;
  /**
   * Load foreign (non-test-source) identities into every service's store, and add other people's activity to the
   * notification feeds (reference/faults/foreign-data.ts); default REFERENCE_FOREIGN_DATA=1.
   */
  foreignData?: boolean;
  /**
   * identityGroupedBySource always, or only when the GROUP_BY_SOURCE view is requested (reference/views.ts); default
   * REFERENCE_GROUPED_BY_SOURCE, else always.
   */
  groupedBySource?: GroupedBySource;
  /**
   * Match threshold of every service's matcher, replacing its default (postIdentity linking and demographicsQuery).
   * Default: REFERENCE_MATCH_THRESHOLD when set, else each matcher's own. Used by the match-quality benchmark to show a
   * threshold change as a regression.
   */
  matchThreshold?: number;
  /**
   * Legitimate variants to switch on (reference/variants/catalogue.ts): `name` or `name=value` strings, or `{ name,
   * value }`. Default: REFERENCE_VARIANTS. @throws VariantError
   */
  variants?: Iterable<VariantSpec | string>;
  /** Delay before every request is handled, ms (default REFERENCE_LATENCY_MS, else 0). */
  latencyMs?: number;
  /** Extra random delay of up to this many ms per request (default REFERENCE_JITTER_MS, else 0). */
  jitterMs?: number;
  /**
   * Handle one request at a time: after its latency, every request waits for one lock shared by
   * the services and holds it for its operation's handling time (reference/variants/serialized.ts).
   * Default: no lock (requests are handled as they come).
   */
  serialized?: HandlingTimes;
}

export interface RunningReference {
  /** Base URL without the service path, e.g. http://127.0.0.1:39123 */
  url: string;
  /**
   * Base URL of one service. Services whose documented paths collide (organization and provider both answer at
   * /provider-link-ws/svc) cannot share one base URL: the first registered keeps `url`, every service is also served
   * under `url/<service>`, and this returns the one to use.
   */
  baseUrlOf(service: ServiceName): string;
  port: number;
  auth: ReferenceAuth;
  stores: Map<ServiceName, ServiceStore>;
  /** A valid bearer token. */
  token: string;
  /** Names of the faults switched on (REFERENCE_FAULTS or the option); empty for a clean reference. */
  faults: string[];
  /**
   * Requests routed to each service so far (every attempt, answered or not), for benchmarks that count at the
   * deployment.
   */
  requestsReceived(): Record<ServiceName, number>;
  /**
   * Time spent answering each service's requests so far, ms summed over its requests: from a request's arrival to its
   * reply handed to the operating system (injected latency, handling and waits for this process's event loop), for
   * benchmarks that compare it with the latency injected. A request answered by no reply (a connection reset by a
   * variant) adds nothing.
   */
  answeringMs(): Record<ServiceName, number>;
  /**
   * With `serialized`: per service, ms summed over its requests, the time they waited for the
   * lock and the time they held it (their handling); zero without it.
   */
  lockMs(): { waiting: Record<ServiceName, number>; handling: Record<ServiceName, number> };
  /**
   * Requests in flight and arrivals per service and second since the first request (reference/occupancy.ts), for
   * benchmarks.
   */
  occupancy(): PerSecond;
  stop(): Promise<void>;
}

const MAX_BODY = 5 * 1024 * 1024;

/** A figure for every service the reference serves, 0 where none was counted. */
const perService = (counted: Partial<Record<ServiceName, number>>) =>
  Object.fromEntries(
    (Object.keys(REFERENCE_SERVICES) as ServiceName[]).map((service) => [service, counted[service] ?? 0]),
  ) as Record<ServiceName, number>;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Rejection(413, 'request body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

type Route = { service: ServiceName; operation: string };

/** What answering a request reads: built once by startReference, shared by every request. */
interface Served {
  auth: ReferenceAuth;
  hooks: HookSet;
  /** Names of the active faults (what HandlerContext.faults holds). */
  faults: string[];
  routes: Map<string, Route>;
  stores: Map<ServiceName, ServiceStore>;
  occupancy: Occupancy;
  matcherOf: (m: HandlerContext['matcher']) => HandlerContext['matcher'];
  grouped: GroupedBySource;
  othersAct?: (service: ServiceName) => void;
  received: Partial<Record<ServiceName, number>>;
  answering: Partial<Record<ServiceName, number>>;
}

/**
 * The options over the settings of the environment (reference/settings.ts), unless the options give every one of them.
 * @throws ReferenceSettingError, UnknownFault, VariantError, or an Error for a match threshold outside 0 to 1
 */
function configure(options: ReferenceOptions) {
  const given =
    options.faults !== undefined &&
    options.foreignData !== undefined &&
    options.groupedBySource !== undefined &&
    options.matchThreshold !== undefined;
  const env = given
    ? { faults: [], variants: [], foreignData: false, groupedBySource: 'always' as const }
    : referenceSettings(process.env);
  // Faults: the option, else REFERENCE_FAULTS (reference/faults/catalogue.ts). @throws UnknownFault
  const faults = activeFaults(options.faults ?? env.faults);
  // Variants: the option, else REFERENCE_VARIANTS (reference/variants/catalogue.ts). @throws VariantError
  const variants = new VariantSet(options.variants ?? env.variants);
  const delay = latencySettings(options, given ? {} : process.env);
  const threshold = options.matchThreshold ?? env.matchThreshold;
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 1))
    throw new Error(`REFERENCE_MATCH_THRESHOLD: expected a number from 0 to 1, got ${threshold}`);
  const grouped = options.groupedBySource ?? env.groupedBySource;
  const foreign = options.foreignData ?? env.foreignData;
  return { faults, variants, delay, threshold, grouped, foreign };
}

/**
 * A store per service the reference serves, and the route of every operation: at /<service><servicePath><path>, and
 * at <servicePath><path> for the first service documented there.
 */
function serviceRoutes() {
  const stores = new Map<ServiceName, ServiceStore>();
  const routes = new Map<string, Route>();
  for (const spec of Object.values(SERVICES)) {
    if (!REFERENCE_SERVICES[spec.name]) continue;
    stores.set(spec.name, new ServiceStore(spec.name));
    for (const op of spec.operations) {
      const route = { service: spec.name, operation: op.name };
      routes.set(`/${spec.name}${spec.servicePath}${op.path}`, route);
      if (!routes.has(`${spec.servicePath}${op.path}`)) routes.set(`${spec.servicePath}${op.path}`, route);
    }
  }
  return { stores, routes };
}

/** Time each service waited for and held the lock of a serializing deployment, and the turn listener counting it. */
function lockTimes(occupancy: Occupancy) {
  const waiting: Partial<Record<ServiceName, number>> = {};
  const handling: Partial<Record<ServiceName, number>> = {};
  const onTurn = ({ service, startMs, waitedMs, handlingMs }: Turn) => {
    const s = service as ServiceName;
    waiting[s] = (waiting[s] ?? 0) + waitedMs;
    handling[s] = (handling[s] ?? 0) + handlingMs;
    occupancy.lockHeld(startMs, startMs + handlingMs);
  };
  return { waiting, handling, onTurn };
}

export async function startReference(options: ReferenceOptions = {}): Promise<RunningReference> {
  const auth = new ReferenceAuth();
  const { faults, variants, delay, threshold, grouped, foreign } = configure(options);
  const occupancy = new Occupancy();
  const lock = lockTimes(occupancy);
  // Faults and variants share the hook points (reference/hooks.ts); latency is waited out first,
  // then the lock of a serializing deployment.
  const hooks = new HookSet([
    ...(delay.latencyMs || delay.jitterMs ? latency(delay.latencyMs, delay.jitterMs) : []),
    ...(options.serialized ? serialized(options.serialized, lock.onTurn) : []),
    ...faults,
    ...variants.hooks,
  ]);
  const matcherOf = (m: HandlerContext['matcher']) =>
    threshold === undefined ? m : { ...m, threshold, uncertain: Math.min(m.uncertain, threshold) };
  const { stores, routes } = serviceRoutes();
  if (foreign) for (const store of stores.values()) loadForeignData(store);
  const othersAct = foreign ? foreignActivity(stores) : undefined;
  for (const store of stores.values()) hooks.setupStore(store);
  const served: Served = {
    auth,
    hooks,
    faults: faults.map((f) => f.name),
    routes,
    stores,
    occupancy,
    matcherOf,
    grouped,
    othersAct,
    received: {},
    answering: {},
  };
  const server: Server = createServer((req, res) => {
    handle(served, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  // Idle sockets outlive the client's (harness/client.ts retires them after 4 s), so the server never closes a socket
  // the client is about to reuse ("other side closed" under load).
  server.keepAliveTimeout = 65000;
  server.headersTimeout = 66000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url,
    baseUrlOf: (service) => {
      const first = SERVICES[service].operations[0];
      return first && routes.get(`${SERVICES[service].servicePath}${first.path}`)?.service === service
        ? url
        : `${url}/${service}`;
    },
    port,
    auth,
    stores,
    token: await auth.issueToken(),
    faults: served.faults,
    requestsReceived: () => perService(served.received),
    answeringMs: () => perService(served.answering),
    lockMs: () => ({ waiting: perService(lock.waiting), handling: perService(lock.handling) }),
    occupancy: () => occupancy.perSecond(),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/**
 * Answers one request: 404 off the routes, 405 to another method than POST, what a fault or variant intercepts, 401
 * with a plain-text body to a missing credential; else the reply envelope (answer).
 */
async function handle(s: Served, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '').split('?')[0]!;
  const route = s.routes.get(path);
  if (!route) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('Method not allowed');
    return;
  }
  s.received[route.service] = (s.received[route.service] ?? 0) + 1;
  const arrived = performance.now();
  s.occupancy.enter(route.service);
  res.once('finish', () => {
    s.answering[route.service] = (s.answering[route.service] ?? 0) + performance.now() - arrived;
  });
  // 'close' follows 'finish', and also ends a request whose connection was reset without a reply.
  res.once('close', () => s.occupancy.leave(route.service));
  const spec = SERVICES[route.service];
  if (await s.hooks.intercept({ service: route.service, operation: route.operation, req, res })) return;
  const verdict = s.hooks.auth(
    route.service,
    await s.auth.verify(req.headers.authorization, spec.authSchemes),
    req.headers.authorization,
    route.operation,
  );
  if (verdict === 'missing') {
    // Gateways often answer a missing credential with a plain-text body; clients must cope.
    res
      .writeHead(401, {
        'content-type': 'text/plain',
        'www-authenticate': spec.authSchemes[0] === 'bearer' ? 'Bearer' : 'Basic',
      })
      .end('Unauthorized');
    return;
  }
  await answer(s, route, verdict === 'invalid', req, res);
}

/**
 * The reply envelope to a routed, authenticated request: 400 to a body that is no JSON object or content its operation
 * refuses, 401 to an invalid credential, 501 to an operation without a handler, 500 to a handler that throws; else 200
 * with the handler's content. Every reply passes the reply hooks.
 */
async function answer(s: Served, route: Route, invalidCredential: boolean, req: IncomingMessage, res: ServerResponse) {
  let envelope: Record<string, any> = {};
  const reply = (status: number, success: boolean, content: unknown, errors: string[] = [], retryable = false) => {
    const info = s.hooks.reply({
      service: route.service,
      operation: route.operation,
      status,
      request: envelope,
      body: {
        auditId: envelope.auditId ?? null,
        trackingId: envelope.trackingId ?? null,
        success,
        message: success ? 'OK' : (errors[0] ?? 'failed'),
        errors,
        warnings: [],
        retryableError: retryable,
        unparsedJson: null,
        content,
      },
    });
    send(res, info.status, info.body);
  };
  try {
    envelope = requestEnvelope(await readBody(req));
    if (invalidCredential) throw new Rejection(401, 'invalid credentials');
    const spec = SERVICES[route.service];
    const op = spec.operations.find((o) => o.name === route.operation)!;
    const content = validContent(s, route, op, envelope);
    const service = REFERENCE_SERVICES[route.service]!;
    const handler = s.hooks.wrap(route.service, route.operation, service.handlers[op.name]);
    if (!handler) throw new Rejection(501, `${route.operation} is not implemented by the reference`);
    s.othersAct?.(route.service);
    const result = handler({
      store: s.stores.get(route.service)!,
      content,
      envelope,
      matcher: s.matcherOf(service.matcher),
      faults: new Set(s.faults),
      members: DEFAULT_MEMBERS,
    });
    applyGroupedView(s.grouped, content, result);
    reply(200, true, result);
  } catch (e) {
    if (e instanceof Rejection) reply(e.status, false, null, [e.message], e.retryable);
    else reply(500, false, null, [`internal error: ${(e as Error).message}`], false);
  }
}

/** The request envelope of a body. @throws Rejection 400 when the body is not JSON or not a JSON object */
function requestEnvelope(text: string): Record<string, any> {
  let envelope: Record<string, any>;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new Rejection(400, 'request body is not valid JSON');
  }
  if (!envelope || typeof envelope !== 'object' || Array.isArray(envelope))
    throw new Rejection(400, 'request body must be a JSON object (the request envelope)');
  return envelope;
}

/**
 * The request's content, checked against its operation's request schema and the validation hooks.
 * @throws Rejection 400 with the first five issues, unless a hook accepts the invalid content
 */
function validContent(
  s: Served,
  route: Route,
  op: (typeof SERVICES)[ServiceName]['operations'][number],
  envelope: Record<string, any>,
) {
  const content = envelope.content ?? {};
  const parsed = op.request.safeParse(content);
  const schemaIssues = parsed.success
    ? []
    : parsed.error.issues.slice(0, 5).map((i) => `content.${i.path.join('.')}: ${i.message}`);
  const issues = s.hooks.validate({
    service: route.service,
    operation: route.operation,
    envelope,
    content,
    issues: schemaIssues,
  });
  if (issues.length && !s.hooks.acceptsInvalid(route.service, route.operation, content))
    throw new Rejection(400, issues.join('; '));
  return content;
}
