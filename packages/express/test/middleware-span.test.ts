import { aqm } from '@aqm/express';
import { propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expressVersions, fetchRaw, listen, type RunningServer } from './helpers/server.js';
import { appTracer, endedSpan, finishedSpans, parentIdOf, resetSpans, spanNamed } from './helpers/tracing.js';

let server: RunningServer | undefined;
beforeEach(() => resetSpans());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const isServerSpan = (span: ReadableSpan) => span.kind === SpanKind.SERVER;

describe.each(expressVersions)('aqm() request span on $name', ({ express }) => {
  it('starts a SERVER span named after the route, with HTTP, session, user and deployment attributes', async () => {
    const app = express();
    app.use(aqm({ environment: 'staging', appVersion: '2.3.4' }));
    app.post('/chat/:id', (_req, res) => {
      res.status(201).json({ ok: true });
    });
    server = await listen(app);

    const response = await fetchRaw(`${server.url}/chat/42?verbose=1`, {
      method: 'POST',
      headers: { 'x-session-id': 'session-7', 'x-user-id': 'user-3' },
    });
    expect(response.status).toBe(201);

    const span = await endedSpan(isServerSpan, 'of kind SERVER');
    expect(span.name).toBe('POST /chat/:id');
    expect(span.instrumentationScope.name).toBe('@aqm/express');
    expect(span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.path': '/chat/42',
      'http.route': '/chat/:id',
      'http.response.status_code': 201,
      'session.id': 'session-7',
      'user.id': 'user-3',
      'deployment.environment.name': 'staging',
      'service.version': '2.3.4',
    });
    expect(span.attributes['gen_ai.operation.name']).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('names the span after the path when no route matched, and includes the mount path of a router', async () => {
    const app = express();
    const router = express.Router();
    router.get('/items/:itemId', (_req, res) => {
      res.send('item');
    });
    app.use(aqm());
    app.use('/api', router);
    server = await listen(app);

    await fetchRaw(`${server.url}/api/items/9`);
    const routed = await endedSpan((s) => s.attributes['url.path'] === '/api/items/9');
    expect(routed.name).toBe('GET /api/items/:itemId');

    await fetchRaw(`${server.url}/nowhere`);
    const unrouted = await endedSpan((s) => s.attributes['url.path'] === '/nowhere');
    expect(unrouted.name).toBe('GET /nowhere');
    expect(unrouted.attributes['http.response.status_code']).toBe(404);
    expect(unrouted.attributes['http.route']).toBeUndefined();
  });

  it('reads the ids with the sessionId/userId functions, and with custom header names', async () => {
    const app = express();
    app.get(
      '/fn',
      aqm({ sessionId: (req) => `s-${req.headers['x-tenant']}`, userId: () => 1234 }),
      (_req, res) => {
        res.end();
      },
    );
    app.get(
      '/headers',
      aqm({ sessionIdHeader: 'X-Conversation', userIdHeader: 'x-account' }),
      (_req, res) => {
        res.end();
      },
    );
    server = await listen(app);

    await fetchRaw(`${server.url}/fn`, { headers: { 'x-tenant': 'acme', 'x-session-id': 'ignored' } });
    const fn = await endedSpan((s) => s.attributes['url.path'] === '/fn');
    expect(fn.attributes['session.id']).toBe('s-acme');
    expect(fn.attributes['user.id']).toBe('1234');

    await fetchRaw(`${server.url}/headers`, {
      headers: { 'x-conversation': 'conv-1', 'x-account': 'acct-1' },
    });
    const headers = await endedSpan((s) => s.attributes['url.path'] === '/headers');
    expect(headers.attributes['session.id']).toBe('conv-1');
    expect(headers.attributes['user.id']).toBe('acct-1');
  });

  it('leaves session.id and user.id out when nothing names them', async () => {
    const app = express();
    app.use(aqm());
    app.get('/', (_req, res) => {
      res.end();
    });
    server = await listen(app);
    await fetchRaw(server.url);
    const span = await endedSpan(isServerSpan);
    expect(span.attributes).not.toHaveProperty('session.id');
    expect(span.attributes).not.toHaveProperty('user.id');
    expect(span.attributes).not.toHaveProperty('deployment.environment.name');
  });

  it('makes an LLM span created in an async handler behind express.json() a child of the request span', async () => {
    const app = express();
    let bodyMayFollow: () => void = () => {};
    const serverHasHeaders = new Promise<void>((resolve) => {
      bodyMayFollow = resolve;
    });
    app.use(aqm());
    app.use((_req, _res, next) => {
      bodyMayFollow();
      next();
    });
    // Mounted after aqm(), with the body arriving only now: the handler runs from the socket's
    // `data`/`end` events, outside the middleware's call.
    app.use(express.json());
    app.post('/chat', async (req, res) => {
      await new Promise((resolve) => setImmediate(resolve));
      const answer = await appTracer.startActiveSpan(
        'chat gpt-test',
        { kind: SpanKind.CLIENT },
        async (llm) => {
          await Promise.resolve();
          llm.end();
          return `echo ${(req.body as { message: string }).message}`;
        },
      );
      const baggage = propagation.getActiveBaggage();
      res.json({
        answer,
        session: baggage?.getEntry('session.id')?.value,
        user: baggage?.getEntry('user.id')?.value,
      });
    });
    server = await listen(app);

    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('{"message":'));
        await serverHasHeaders;
        controller.enqueue(new TextEncoder().encode('"hi"}'));
        controller.close();
      },
    });
    const response = await fetchRaw(`${server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-id': 'sess-b', 'x-user-id': 'user-b' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(JSON.parse(response.body.toString())).toEqual({
      answer: 'echo hi',
      session: 'sess-b',
      user: 'user-b',
    });

    const request = await endedSpan(isServerSpan);
    const llm = await spanNamed('chat gpt-test');
    expect(llm.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(parentIdOf(llm)).toBe(request.spanContext().spanId);
  });

  it('runs listeners a handler adds to the request stream in the request context', async () => {
    const app = express();
    let bodyMayFollow: () => void = () => {};
    const serverHasHeaders = new Promise<void>((resolve) => {
      bodyMayFollow = resolve;
    });
    app.use(aqm());
    app.post('/upload', (req, res) => {
      const chunks: Buffer[] = [];
      // The chunks come from the socket's events, outside any call of the middleware.
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        appTracer.startSpan('chat after-upload').end();
        res.send(Buffer.concat(chunks).toString());
      });
      bodyMayFollow();
    });
    server = await listen(app);

    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('late '));
        await serverHasHeaders;
        controller.enqueue(new TextEncoder().encode('body'));
        controller.close();
      },
    });
    const response = await fetchRaw(`${server.url}/upload`, {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.body.toString()).toBe('late body');
    const request = await endedSpan(isServerSpan);
    const llm = await spanNamed('chat after-upload');
    expect(parentIdOf(llm)).toBe(request.spanContext().spanId);
  });

  it('continues the trace and the baggage of the incoming traceparent and baggage headers', async () => {
    const app = express();
    app.use(aqm());
    app.get('/', (_req, res) => {
      res.end();
    });
    server = await listen(app);

    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await fetchRaw(server.url, {
      headers: {
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
        baggage: 'session.id=upstream-session,user.id=upstream-user',
      },
    });
    const span = await endedSpan(isServerSpan);
    expect(span.spanContext().traceId).toBe(traceId);
    expect(parentIdOf(span)).toBe('00f067aa0ba902b7');
    expect(span.attributes['session.id']).toBe('upstream-session');
    expect(span.attributes['user.id']).toBe('upstream-user');
  });

  it('marks a 5xx response as an error and a 4xx response as not', async () => {
    const app = express();
    app.use(aqm());
    app.get('/503', (_req, res) => {
      res.sendStatus(503);
    });
    app.get('/400', (_req, res) => {
      res.sendStatus(400);
    });
    server = await listen(app);

    await fetchRaw(`${server.url}/503`);
    const failed = await endedSpan((s) => s.attributes['url.path'] === '/503');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.attributes['error.type']).toBe('503');

    await fetchRaw(`${server.url}/400`);
    const rejected = await endedSpan((s) => s.attributes['url.path'] === '/400');
    expect(rejected.status.code).toBe(SpanStatusCode.UNSET);
    expect(rejected.attributes['http.response.status_code']).toBe(400);
  });

  it('ends the span when the client goes away before the response ends', async () => {
    const app = express();
    app.use(aqm());
    app.get('/hang', (_req, res) => {
      res.write('partial');
      // Never ends: only the client's abort closes the response.
    });
    server = await listen(app);

    const controller = new AbortController();
    const response = await fetch(`${server.url}/hang`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    const span = await endedSpan(isServerSpan);
    expect(span.name).toBe('GET /hang');
    expect(span.ended).toBe(true);
  });

  it('traces a request once when aqm() is mounted twice on its way', async () => {
    const app = express();
    app.use(aqm({ environment: 'outer' }));
    app.get('/', aqm({ environment: 'inner' }), (_req, res) => {
      res.end();
    });
    server = await listen(app);
    await fetchRaw(server.url);
    const span = await endedSpan(isServerSpan);
    expect(span.attributes['deployment.environment.name']).toBe('outer');
    expect(finishedSpans().filter(isServerSpan)).toHaveLength(1);
  });
});
