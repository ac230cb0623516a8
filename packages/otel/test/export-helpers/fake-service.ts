import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A received trace: the fields the tests look at. */
export interface ReceivedTrace {
  traceId: string;
  prompt: string;
  response: string;
  spans?: unknown[];
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** One request as the fake service saw it. */
export interface ReceivedRequest {
  index: number;
  path: string;
  apiKey: string | undefined;
  bytes: number;
  traces: ReceivedTrace[];
}

/** How to answer: a status and JSON body, or hang (never answer), or break the connection. */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang' | 'destroy';

/** Decides the reply of each request; may wait (a gate) before answering. */
export type Handler = (request: ReceivedRequest) => Reply | Promise<Reply>;

/** The service's success answer for a batch. */
export function acceptReply(request: ReceivedRequest): Reply {
  return {
    status: 200,
    body: {
      success: true,
      data: { accepted: request.traces.length, traceIds: request.traces.map((t) => t.traceId) },
    },
  };
}

/** A `{ success: false, message }` error answer. */
export function errorReply(status: number, message = 'failed', headers?: Record<string, string>): Reply {
  return { status, body: { success: false, message }, ...(headers === undefined ? {} : { headers }) };
}

/**
 * A stand-in for `POST /applications/{id}/evaluations` on a loopback port chosen by the OS. Each
 * test scripts its answers through `handler`; the service counts requests in flight (and their
 * maximum), aborted requests and how often each trace id was accepted.
 */
export class FakeService {
  readonly requests: ReceivedRequest[] = [];
  /** Trace id → how many times a 200 answer carried it. */
  readonly accepted = new Map<string, number>();
  /** The traces of 200 answers, in order. */
  readonly acceptedTraces: ReceivedTrace[] = [];
  handler: Handler = acceptReply;
  inFlight = 0;
  maxInFlight = 0;
  /** Requests whose connection closed before an answer was sent. */
  aborted = 0;
  readonly #server: Server;
  readonly #events = new EventEmitter();
  readonly #sockets = new Set<Socket>();
  #baseUrl = '';

  private constructor() {
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    this.#events.setMaxListeners(0);
  }

  /** Starts a service on 127.0.0.1, port 0. */
  static async start(): Promise<FakeService> {
    const service = new FakeService();
    await new Promise<void>((resolve) => service.#server.listen(0, '127.0.0.1', resolve));
    const { port } = service.#server.address() as AddressInfo;
    service.#baseUrl = `http://127.0.0.1:${port}/api`;
    return service;
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }

  /** Sizes of the batches received, in order. */
  get batchSizes(): number[] {
    return this.requests.map((request) => request.traces.length);
  }

  /** Resolves once `predicate` holds; re-checked after every request event. */
  waitFor(predicate: () => boolean): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!predicate()) return;
        this.#events.off('change', check);
        resolve();
      };
      this.#events.on('change', check);
    });
  }

  /** Stops listening and breaks every open connection (hanging requests included). */
  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    let traces: ReceivedTrace[] = [];
    try {
      traces = (JSON.parse(raw.toString('utf8')) as { traces: ReceivedTrace[] }).traces;
    } catch {
      // A body that is not JSON: the handler sees no traces.
    }
    const request: ReceivedRequest = {
      index: this.requests.length,
      path: req.url ?? '',
      apiKey: typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : undefined,
      bytes: raw.length,
      traces,
    };
    this.requests.push(request);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    let answered = false;
    res.on('close', () => {
      this.inFlight -= 1;
      if (!answered) this.aborted += 1;
      this.#events.emit('change');
    });
    this.#events.emit('change');
    const reply = await this.handler(request);
    if (reply === 'hang') return;
    if (reply === 'destroy') {
      req.socket.destroy();
      return;
    }
    if (res.destroyed) return;
    answered = true;
    if (reply.status === 200) {
      for (const trace of traces) {
        this.accepted.set(trace.traceId, (this.accepted.get(trace.traceId) ?? 0) + 1);
        this.acceptedTraces.push(trace);
      }
    }
    const body = JSON.stringify(reply.body ?? {});
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(body);
  }
}

/** A promise with its resolver, to hold answers until a test releases them. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
