/**
 * A deployment that misbehaves at the transport level, for the resilience self-tests: each
 * request is answered by the next behaviour of a script (the last one repeats). Listens on
 * 127.0.0.1 on a free port.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Behaviour =
  | { kind: 'ok'; content?: unknown }
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'retryable' }
  | { kind: 'non-json' }
  | { kind: 'truncated' }
  | { kind: 'not-envelope' }
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'slow'; ms: number };

export interface FaultyServer {
  url: string;
  /** Requests received, in order, with their operation path and body. */
  requests: Array<{ path: string; body: string; at: number }>;
  close(): Promise<void>;
}

const envelope = (req: Record<string, any>, extra: Record<string, unknown>) =>
  JSON.stringify({
    auditId: req.auditId ?? null,
    trackingId: req.trackingId ?? null,
    success: true,
    message: 'OK',
    errors: [],
    warnings: [],
    retryableError: false,
    unparsedJson: null,
    content: {},
    ...extra,
  });

export async function startFaultyServer(script: Behaviour[]): Promise<FaultyServer> {
  const requests: FaultyServer['requests'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const b = script[Math.min(requests.length, script.length - 1)]!;
      requests.push({ path: req.url ?? '', body, at: Date.now() });
      let parsed: Record<string, any> = {};
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = {};
      }
      const json = (status: number, text: string, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
      switch (b.kind) {
        case 'ok':
          return json(
            200,
            envelope(parsed, { content: b.content ?? { linkId: 'ORG000', identityGroupedBySource: [] } }),
          );
        case 'status':
          return json(b.status, b.body ?? `<html><body>${b.status} from the gateway</body></html>`, b.headers);
        case 'retryable':
          return json(
            200,
            envelope(parsed, {
              success: false,
              message: 'try again',
              errors: ['backend busy'],
              retryableError: true,
              content: null,
            }),
          );
        case 'non-json':
          return res
            .writeHead(200, { 'content-type': 'text/html' })
            .end('<html><body>Service Temporarily Unavailable</body></html>');
        case 'truncated':
          return json(200, envelope(parsed, {}).slice(0, 40));
        case 'not-envelope':
          return json(200, JSON.stringify([{ linkId: 'ORG1' }]));
        case 'reset':
          return req.socket.destroy();
        case 'hang':
          return; // never answers
        case 'slow':
          return void setTimeout(() => json(200, envelope(parsed, { content: { linkId: 'ORG000' } })), b.ms);
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
