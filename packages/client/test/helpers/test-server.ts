import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the test server received it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query as sent, e.g. `/api/applications?page=2`. */
  url: string;
  /** `url` without the `/api` prefix and the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** Client-side port of the connection, to tell connections apart. */
  remotePort: number | undefined;
}

/** Answers one request. */
export type Handler = (req: ReceivedRequest, res: ServerResponse) => void;

/** A loopback HTTP server on port 0 that answers with queued handlers and records every request. */
export interface TestServer {
  /** Base URL including the `/api` prefix, as a client's `baseUrl`. */
  baseUrl: string;
  requests: ReceivedRequest[];
  /** Queues handlers, used in order; once used up, the last one keeps answering. */
  reply(...handlers: Handler[]): void;
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Resolves once every client connection to the server has closed. */
  waitForNoConnections(): Promise<void>;
  close(): Promise<void>;
}

export const PREFIX = '/api';

/** Replies with a JSON body. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** Replies with a plain-text body. */
export function text(status: number, body: string): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(body);
  };
}

/** `{ success: true, data }` */
export function ok(data: unknown): Handler {
  return json(200, { success: true, data });
}

/** Never answers (the client must time out). */
export const hang: Handler = () => {};

/** Destroys the connection without a response (a reset seen by the client). */
export const reset: Handler = (_req, res) => {
  res.socket?.destroy();
};

export async function startTestServer(): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const queue: Handler[] = [];
  let last: Handler = json(500, { success: false, message: 'no handler queued in the test' });
  const arrivals = new EventTarget();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const received: ReceivedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      path: url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      remotePort: req.socket.remotePort,
    };
    requests.push(received);
    const handler = queue.shift() ?? last;
    if (queue.length === 0) last = handler;
    handler(received, res);
    arrivals.dispatchEvent(new Event('request'));
  });
  let open = 0;
  const closed = new EventTarget();
  server.on('connection', (socket) => {
    open++;
    socket.on('close', () => {
      open--;
      closed.dispatchEvent(new Event('close'));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${PREFIX}`,
    requests,
    reply(...handlers) {
      queue.push(...handlers);
    },
    async waitForRequests(count) {
      while (requests.length < count) await once(arrivals, 'request');
    },
    async waitForNoConnections() {
      while (open > 0) await once(closed, 'close');
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
