import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

// A loopback port nothing listens on: a proxy that is down.
export { closedPort } from '../../client/helpers.js';

/** One request the proxy received: a CONNECT tunnel or an absolute-form request it forwarded. */
export interface ProxiedRequest {
  /** `CONNECT`, or the method of a forwarded request. */
  method: string;
  /** `host:port` of a CONNECT, the absolute URL of a forwarded request. */
  target: string;
  /** The `Proxy-Authorization` header as received, if any. */
  proxyAuthorization: string | undefined;
  /** Whether the proxy let it through (false: answered 407). */
  allowed: boolean;
}

/** A forward proxy on a loopback port, as a corporate network would have. */
export interface LocalProxy {
  /** `http://127.0.0.1:<port>`, with `user:password@` when the proxy requires them. */
  readonly url: string;
  readonly port: number;
  readonly requests: readonly ProxiedRequest[];
  /** Requests whose target is `host:port` (CONNECT) or under `http://host:port` (forwarded). */
  requestsTo(hostPort: string): ProxiedRequest[];
  close(): Promise<void>;
}

/** Basic credentials a proxy may require (answering 407 without them). */
export interface ProxyCredentials {
  user: string;
  password: string;
}

function authorized(req: IncomingMessage, credentials: ProxyCredentials | undefined): boolean {
  if (credentials === undefined) return true;
  const expected = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
  return req.headers['proxy-authorization'] === expected;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function forward(req: IncomingMessage, res: ServerResponse): void {
  const target = new URL(req.url ?? '/');
  if (!LOOPBACK.has(target.hostname)) {
    res.writeHead(502).end();
    return;
  }
  const headers = { ...req.headers };
  delete headers['proxy-authorization'];
  delete headers['proxy-connection'];
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      method: req.method,
      headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

/**
 * Starts a forward proxy on a free loopback port: CONNECT tunnels (how undici sends through a
 * proxy, for http: targets too) and absolute-form requests (how curl and Node's own proxy support
 * send plain http), each counted; only loopback targets are reached (others get 502). With `credentials`, a request without the right
 * `Proxy-Authorization` is answered 407. `port`: a port known in advance (a proxy that was down and comes up).
 * @example
 * const proxy = await startLocalProxy({ credentials: { user: 'u', password: 'p' } });
 */
export async function startLocalProxy(
  options: { credentials?: ProxyCredentials; port?: number } = {},
): Promise<LocalProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const record = (req: IncomingMessage, target: string): boolean => {
    const allowed = authorized(req, options.credentials);
    requests.push({
      method: req.method ?? '',
      target,
      proxyAuthorization: req.headers['proxy-authorization'],
      allowed,
    });
    return allowed;
  };
  const server = createServer((req, res) => {
    if (!record(req, req.url ?? '')) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', connection: 'close' }).end();
      return;
    }
    forward(req, res);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    client.on('error', () => {});
    if (!record(req, target)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n',
      );
      return;
    }
    const colon = target.lastIndexOf(':');
    // A test proxy never reaches out of the machine: another host is a gateway error at once.
    if (!LOOPBACK.has(target.slice(0, colon))) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = connect(Number(target.slice(colon + 1)), target.slice(0, colon), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const auth = options.credentials
    ? `${encodeURIComponent(options.credentials.user)}:${encodeURIComponent(options.credentials.password)}@`
    : '';
  return {
    url: `http://${auth}127.0.0.1:${port}`,
    port,
    requests,
    requestsTo: (hostPort) =>
      requests.filter((r) => r.target === hostPort || r.target.startsWith(`http://${hostPort}/`)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `host:port` of a URL, as a CONNECT names it. */
export function hostPortOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port}`;
}
