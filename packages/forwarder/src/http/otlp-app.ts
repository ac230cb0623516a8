import { nonUtf8Charset, receiveTimeouts } from '@aqm/wire';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { IngestResult } from '../ingest-refusals.js';
import { OtlpDecodeError } from '../otlp/decode-error.js';
import {
  checkRequestPrefix,
  type DecodedRequest,
  decodeRequest,
  encodeExportResponse,
  encodeStatus,
  type OtlpFormat,
  type OtlpSignal,
} from '../otlp/otlp-codec.js';
import type { BodyBudget } from './body-budget.js';
import { answerClientError } from './client-error.js';
import { ForwarderHttpError, rpcCodeOf } from './http-error.js';
import type { IngestTokens } from './ingest-auth.js';
import { readBody } from './read-body.js';

/** What the HTTP layer needs from the forwarder. */
export interface OtlpAppHandlers {
  tokens: IngestTokens;
  maxBodyBytes: number;
  /** The bytes of bodies being received, over all requests, and their bound. */
  bodyBudget: BodyBudget;
  /** The delay a refused sender is told to wait (`Retry-After`), in seconds. */
  retryAfterSeconds: () => number;
  /** Longest time to receive one request (head and body); past it Node answers 408. */
  receiveTimeoutMs: number;
  /**
   * Takes decoded items of a body of `bodyBytes` (inflated), admitting what fits; never rejects.
   * `retryLater` in the result: nothing was taken, answered 503 with Retry-After.
   */
  ingest(
    signal: OtlpSignal,
    items: DecodedRequest,
    bodyBytes: number,
    source: { format: OtlpFormat; body: Buffer; route?: string },
  ): Promise<IngestResult>;
  /** Whether the queue is too full to take anything, known before the body is read (answered 503 with Retry-After). */
  queueFull(): boolean;
  /** Whether the forwarder takes traffic (false while closing). */
  ready(): boolean;
  /** Counts an answer, by route and status. */
  countResponse(key: string): void;
  /** Counts an answer given before routing (400, 408, 431), by status. */
  countResponseBeforeRouting(status: number): void;
  /** Counts a 503 for a full queue. */
  countQueueFull(): void;
  metrics(): string;
}

const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';
const INGEST_ROUTES = new Set(['POST /v1/traces', 'POST /v1/logs']);
/** Routes open without a token: they carry no trace content. Every other request needs one. */
const OPEN_ROUTES = new Set(
  ['/healthz', '/readyz', '/metrics'].flatMap((url) => [`GET ${url}`, `HEAD ${url}`]),
);

/**
 * The route fastify matched (after decoding the path), e.g. `POST /v1/traces`; `undefined` when
 * none did. Decisions are made on it, never on the raw URL, which `/v1/%74races` spells otherwise.
 */
function matchedRoute(request: FastifyRequest): string | undefined {
  const url = request.routeOptions.url;
  return url === undefined ? undefined : `${request.method} ${url}`;
}
const QUEUE_FULL =
  'The forwarder queue is full (the AQM service is slow or unreachable); retry after the Retry-After delay';

function formatOf(request: FastifyRequest): OtlpFormat {
  const type = request.headers['content-type'];
  return typeof type === 'string' && type.toLowerCase().startsWith(JSON_TYPE) ? 'json' : 'protobuf';
}

function signalOf(url: string): OtlpSignal | undefined {
  const path = url.split('?')[0];
  return path === '/v1/traces' ? 'traces' : path === '/v1/logs' ? 'logs' : undefined;
}

function sendStatus(
  reply: FastifyReply,
  format: OtlpFormat,
  statusCode: number,
  message: string,
): FastifyReply {
  return reply
    .code(statusCode)
    .type(format === 'json' ? JSON_TYPE : PROTOBUF)
    .send(encodeStatus(format, rpcCodeOf(statusCode), message));
}

/**
 * The forwarder's HTTP surface, as a fastify instance (not listening): OTLP/HTTP 1.x ingest at
 * `POST /v1/traces` and `POST /v1/logs` (protobuf or JSON, gzip or not), `GET /healthz`,
 * `GET /readyz` and `GET /metrics`. One error handler gives every refusal a `google.rpc.Status`
 * body in the request's encoding.
 *
 * @example
 * const app = buildOtlpApp(handlers);
 * await app.listen({ port: 4318, host: '127.0.0.1' });
 */
export function buildOtlpApp(handlers: OtlpAppHandlers): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: handlers.maxBodyBytes,
    return503OnClosing: true,
    // A sender that never finishes its request (slowloris) gets 408 through answerClientError.
    ...receiveTimeouts(handlers.receiveTimeoutMs),
    clientErrorHandler: (error, socket) => {
      const status = answerClientError(error, socket);
      if (status !== undefined) handlers.countResponseBeforeRouting(status);
    },
    // A path that does not decode (`/v1/%zz`): a Status body like the others, and counted.
    frameworkErrors: (_error, request, reply) => {
      handlers.countResponseBeforeRouting(400);
      return sendStatus(reply, formatOf(request), 400, 'The request path is not a valid URL');
    },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([PROTOBUF, JSON_TYPE], (request, payload, done) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > handlers.maxBodyBytes) {
      payload.resume();
      done(
        new ForwarderHttpError(
          413,
          `The request body of ${declared} bytes exceeds the limit of ${handlers.maxBodyBytes} bytes (maxBodyBytes)`,
        ),
        undefined,
      );
      return;
    }
    const charset = nonUtf8Charset(request.headers['content-type']);
    if (charset !== undefined) {
      payload.resume();
      done(
        new ForwarderHttpError(
          415,
          `Unsupported charset ${JSON.stringify(charset)}: OTLP/JSON is read as UTF-8 (send charset=utf-8 or none)`,
        ),
        undefined,
      );
      return;
    }
    const encoding = request.headers['content-encoding'];
    const signal = signalOf(request.url);
    // A body past a decode limit is refused as it arrives, without reading (or inflating) the rest.
    const checkPrefix =
      signal === undefined
        ? undefined
        : (prefix: Buffer) => checkRequestPrefix(signal, formatOf(request), prefix);
    readBody(payload, typeof encoding === 'string' ? encoding : undefined, handlers.maxBodyBytes, {
      account: handlers.bodyBudget.open(),
      ...(checkPrefix === undefined ? {} : { checkPrefix }),
    }).then(
      (body) => done(null, body),
      (error: Error) => done(error, undefined),
    );
  });

  app.addHook('onRequest', async (request, reply) => {
    const route = matchedRoute(request);
    if (route !== undefined && OPEN_ROUTES.has(route)) return;
    // Unmatched paths too: a sender without a token learns nothing of which routes exist.
    const format = formatOf(request);
    if (!handlers.tokens.accepts(request.headers)) {
      reply.header('www-authenticate', 'Bearer');
      return sendStatus(
        reply,
        format,
        401,
        'Missing or unknown ingest token: send `Authorization: Bearer <token>`',
      );
    }
    if (route === undefined || !INGEST_ROUTES.has(route)) return;
    if (handlers.queueFull()) return sendQueueFull(reply, format, QUEUE_FULL);
  });
  const sendQueueFull = (reply: FastifyReply, format: OtlpFormat, message: string) => {
    handlers.countQueueFull();
    reply.header('retry-after', String(handlers.retryAfterSeconds()));
    return sendStatus(reply, format, 503, message);
  };
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'other';
    handlers.countResponse(`${request.method} ${route} ${reply.statusCode}`);
  });

  const ingestRoute = (signal: OtlpSignal) => async (request: FastifyRequest, reply: FastifyReply) => {
    const format = formatOf(request);
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const items = decodeRequest(signal, format, body);
    const result = await handlers.ingest(signal, items, body.length, { format, body });
    if (result.retryLater) {
      const reasons = `The forwarder cannot take this request now; retry after the Retry-After delay (${result.errorMessage})`;
      return sendQueueFull(reply, format, reasons);
    }
    return reply
      .code(200)
      .type(format === 'json' ? JSON_TYPE : PROTOBUF)
      .send(encodeExportResponse(signal, format, result.rejected, result.errorMessage));
  };
  app.post('/v1/traces', ingestRoute('traces'));
  app.post('/v1/logs', ingestRoute('logs'));
  app.get('/healthz', async (_request, reply) => reply.type('text/plain').send('ok\n'));
  app.get('/readyz', async (_request, reply) =>
    handlers.ready()
      ? reply.type('text/plain').send('ready\n')
      : reply.code(503).type('text/plain').send('closing\n'),
  );
  app.get('/metrics', async (_request, reply) =>
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(handlers.metrics()),
  );

  app.setNotFoundHandler((request, reply) =>
    sendStatus(reply, formatOf(request), 404, `No route ${request.method} ${request.url.split('?')[0]}`),
  );
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const format = formatOf(request);
    if (error instanceof ForwarderHttpError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendStatus(reply, format, error.statusCode, error.message);
    }
    if (error instanceof OtlpDecodeError) return sendStatus(reply, format, error.statusCode, error.message);
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      const type = request.headers['content-type'] ?? '(none)';
      return sendStatus(
        reply,
        'json',
        415,
        `Content-Type ${JSON.stringify(type)} is not supported: send ${PROTOBUF} or ${JSON_TYPE}`,
      );
    }
    const statusCode =
      typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    return sendStatus(reply, format, statusCode, statusCode === 500 ? 'Internal error' : error.message);
  });
  return app;
}
