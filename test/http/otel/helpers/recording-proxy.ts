import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** What the proxy does with one request body: forward it (possibly changed) or answer by itself. */
export type ProxyDecision =
  | { forward: Buffer }
  | { answer: { status: number; body: unknown; headers?: Record<string, string> } };

/** Decides per request; `index` counts the requests the proxy received, from 0. */
export type ProxyInterceptor = (body: Buffer, req: IncomingMessage, index: number) => ProxyDecision;

/** One request that went through the proxy, as seen from the wire. */
export interface Exchange {
  index: number;
  method: string;
  path: string;
  /** Bytes of the body the exporter sent. */
  bodyBytes: number;
  /** `performance.now()` when the request's body had fully arrived. */
  arrivedAt: number;
  /** `performance.now()` just before the answer left (or the connection was reset): the exporter cannot have it earlier. */
  answeredAt: number | undefined;
  /** Status answered; `undefined` while pending or when the connection was reset. */
  status: number | undefined;
  /** Whether the proxy answered by itself instead of forwarding. */
  intercepted: boolean;
  /** The traceIds of the body the exporter sent, in order. */
  sentTraceIds: string[];
  /** The parsed answer body (JSON) when there was one. */
  answer: unknown;
}

/** A loopback proxy between an exporter and the service that records every exchange. */
export interface RecordingProxy {
  /** The proxy's base URL: the service's URL with the proxy's port. */
  readonly url: string;
  readonly exchanges: readonly Exchange[];
  /** How many times the service accepted each traceId (from the `data.traceIds` of 200 answers). */
  readonly accepted: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

function traceIdsOf(body: Buffer): string[] {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { traces?: Array<{ traceId?: unknown }> };
    return (parsed.traces ?? []).map((trace) => String(trace.traceId));
  } catch {
    return [];
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Starts a proxy on a free loopback port in front of `targetUrl` (the service's base URL). Every
 * body is read whole, so the interceptor can look at it, change it or answer instead of the
 * service. A connection the service resets is reset towards the exporter too.
 */
export async function startRecordingProxy(
  targetUrl: string,
  intercept: ProxyInterceptor = (body) => ({ forward: body }),
): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  const exchanges: Exchange[] = [];
  const accepted = new Map<string, number>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const exchange: Exchange = {
      index: exchanges.length,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      bodyBytes: body.length,
      arrivedAt: performance.now(),
      answeredAt: undefined,
      status: undefined,
      intercepted: false,
      sentTraceIds: traceIdsOf(body),
      answer: undefined,
    };
    exchanges.push(exchange);
    const decision = intercept(body, req, exchange.index);
    if ('answer' in decision) {
      const text = JSON.stringify(decision.answer.body);
      exchange.intercepted = true;
      exchange.status = decision.answer.status;
      exchange.answer = decision.answer.body;
      res.writeHead(decision.answer.status, {
        'content-type': 'application/json',
        ...decision.answer.headers,
      });
      exchange.answeredAt = performance.now();
      res.end(text);
      return;
    }
    const headers = { ...req.headers, host: target.host, 'content-length': String(decision.forward.length) };
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        void readBody(answer).then((answerBody) => {
          const text = answerBody.toString('utf8');
          exchange.status = answer.statusCode;
          exchange.answer = parseJson(text);
          if (answer.statusCode === 200 && req.method === 'POST' && req.url?.endsWith('/evaluations')) {
            const ids = (exchange.answer as { data?: { traceIds?: string[] } }).data?.traceIds ?? [];
            for (const id of ids) accepted.set(id, (accepted.get(id) ?? 0) + 1);
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          exchange.answeredAt = performance.now();
          res.end(answerBody);
        });
      },
    );
    upstream.on('error', () => {
      // The service reset (or refused) the connection: do the same to the exporter.
      exchange.answeredAt = performance.now();
      req.socket.resetAndDestroy();
    });
    upstream.end(decision.forward);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = new URL(targetUrl);
  url.port = String(port);
  return {
    url: url.toString().replace(/\/$/, ''),
    exchanges,
    accepted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
