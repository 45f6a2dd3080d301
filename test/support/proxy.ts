/**
 * A local forward proxy for the self-tests, as a corporate one: HTTP CONNECT tunnels (what undici's
 * ProxyAgent sends, for http and https deployments alike) to any host:port, optionally asking for
 * Basic credentials (HTTP 407 without them). Listens on 127.0.0.1 on a free port; counts the
 * tunnels it opened and the Proxy-Authorization headers it saw.
 */
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';

export interface TestProxy {
  url: string;
  /** host:port of every tunnel asked for, in order (refused ones too). */
  tunnels: string[];
  /** Proxy-Authorization headers received. */
  authorizations: string[];
  close(): Promise<void>;
}

export async function startProxy(
  options: { credentials?: { user: string; password: string } } = {},
): Promise<TestProxy> {
  const tunnels: string[] = [];
  const authorizations: string[] = [];
  const expected = options.credentials
    ? `Basic ${Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString('base64')}`
    : undefined;
  const server = createServer((_req, res) => res.writeHead(405).end('only CONNECT'));
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req, client, head) => {
    tunnels.push(req.url ?? '');
    const auth = req.headers['proxy-authorization'];
    if (auth) authorizations.push(String(auth));
    if (expected && auth !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    authorizations,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
