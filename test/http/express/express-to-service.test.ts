import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AqmClient } from '@aqm/client';
import { aqm, aqmErrorHandler } from '@aqm/express';
import { AqmSpanProcessor } from '@aqm/otel';
import { type RunningServer, startServer } from '@aqm/server';
import type { Request, Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { express, express4, NodeTracerProvider, SpanEndNotifier, SpanKind, trace } from './helpers.js';

const API_KEY = `express-e2e-${randomUUID()}`;
const modelTracer = trace.getTracer('fake-llm-client');

/** A chat app: one route answers with res.json, one streams SSE, one makes its own LLM span, one fails. */
function chatApp(factory: typeof express) {
  const app = factory();
  app.use(factory.json());
  app.use(
    aqm<Request>({
      environment: 'e2e',
      appVersion: '3.1.4',
      capture: {
        prompt: (req) => (req.body as { message?: string }).message,
        response: (body, info) => (info.kind === 'json' ? (body as { reply: string }).reply : String(body)),
      },
    }),
  );
  const traceIdHeader = (res: Response) => {
    // The handler tells the test its trace id; the middleware itself never touches headers.
    res.setHeader('x-trace-id', trace.getActiveSpan()?.spanContext().traceId ?? '');
  };
  app.post('/chat', (req, res) => {
    traceIdHeader(res);
    res.json({ reply: `You said: ${(req.body as { message: string }).message}` });
  });
  app.post('/stream', (_req, res) => {
    traceIdHeader(res);
    res.setHeader('content-type', 'text/event-stream');
    for (const token of ['Streamed', ' answer', '.']) res.write(`data: ${token}\n\n`);
    res.end();
  });
  app.post('/model', async (req, res) => {
    traceIdHeader(res);
    // A model call traced by the app itself (as an instrumented LLM client would), below the request span.
    const question = (req.body as { message: string }).message;
    const reply = await modelTracer.startActiveSpan(
      'chat fake-model',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'fake-model',
          'gen_ai.provider.name': 'fake',
          'gen_ai.input.messages': JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: question }] },
          ]),
        },
      },
      async (span) => {
        await Promise.resolve();
        const answer = `Model says: ${question.length} characters`;
        span.setAttribute(
          'gen_ai.output.messages',
          JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' },
          ]),
        );
        span.end();
        return answer;
      },
    );
    res.json({ reply });
  });
  app.post('/fail', (_req, res) => {
    traceIdHeader(res);
    throw new Error('upstream model unavailable');
  });
  app.use(aqmErrorHandler());
  return app;
}

let service: RunningServer;
let client: AqmClient;
let applicationId: string;
let processor: AqmSpanProcessor;
let provider: InstanceType<typeof NodeTracerProvider>;
const notifier = new SpanEndNotifier();

// One service, application and tracer provider for the file: the global provider is set once.
beforeAll(async () => {
  service = await startServer({ apiKeys: [{ key: API_KEY, projectId: 'express-e2e' }] });
  client = new AqmClient({ apiKey: API_KEY, baseUrl: service.url });
  applicationId = (await client.applications.create({ name: `express-e2e-${randomUUID()}` })).id;
  processor = new AqmSpanProcessor({ apiKey: API_KEY, baseUrl: service.url, applicationId });
  provider = new NodeTracerProvider({ spanProcessors: [processor, notifier] });
  provider.register();
});

afterAll(async () => {
  await provider.shutdown();
  await service.close();
});

describe.each([
  { name: 'Express 5', factory: express },
  { name: 'Express 4', factory: express4 },
])('aqm() on $name → AqmSpanProcessor → local service', ({ factory }) => {
  let server: Server;
  let appUrl: string;

  beforeAll(async () => {
    server = createServer(chatApp(factory));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends a chat request and waits until its request span has ended and the trace was delivered. */
  async function converse(path: string, message: string, ids: { session: string; user: string }) {
    const response = await fetch(`${appUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-id': ids.session, 'x-user-id': ids.user },
      body: JSON.stringify({ message }),
    });
    const body = await response.text();
    const traceId = response.headers.get('x-trace-id') ?? '';
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    await notifier.waitFor(
      (span) => span.kind === SpanKind.SERVER && span.spanContext().traceId === traceId,
      `for trace ${traceId}`,
    );
    await processor.forceFlush();
    return { status: response.status, body, traceId };
  }

  it('delivers a res.json chat as a trace with prompt, response, session, user, environment and version', async () => {
    const ids = { session: `session-${randomUUID()}`, user: 'user-42' };
    const { status, body, traceId } = await converse('/chat', 'What is AQM?', ids);
    expect(status).toBe(200);
    expect(JSON.parse(body)).toEqual({ reply: 'You said: What is AQM?' });

    const stored = await client.traces.get(applicationId, traceId);
    expect(stored).toMatchObject({
      traceId,
      prompt: 'What is AQM?',
      response: 'You said: What is AQM?',
      sessionId: ids.session,
      userId: ids.user,
      environment: 'e2e',
      appVersion: '3.1.4',
      status: 'success',
    });
    const { data } = await client.traces.list(applicationId);
    expect(data.map((summary) => summary.traceId)).toContain(traceId);
  });

  it('puts the session, user, environment and version on a trace whose model call the handler made', async () => {
    const ids = { session: `session-${randomUUID()}`, user: 'user-model' };
    const { traceId } = await converse('/model', 'Count me', ids);
    const stored = await client.traces.get(applicationId, traceId);
    expect(stored).toMatchObject({
      prompt: 'Count me',
      response: 'Model says: 8 characters',
      model: 'fake-model',
      sessionId: ids.session,
      userId: ids.user,
      environment: 'e2e',
      appVersion: '3.1.4',
    });
  });

  it('delivers a server-sent event stream with the concatenated data as the response', async () => {
    const { body, traceId } = await converse('/stream', 'Stream please', {
      session: 's-stream',
      user: 'u-stream',
    });
    expect(body).toBe('data: Streamed\n\ndata:  answer\n\ndata: .\n\n');
    const stored = await client.traces.get(applicationId, traceId);
    expect(stored).toMatchObject({
      prompt: 'Stream please',
      response: 'Streamed answer.',
      sessionId: 's-stream',
      userId: 'u-stream',
    });
  });

  it('delivers a failing request as an error trace with its message', async () => {
    const { status, traceId } = await converse('/fail', 'Break', { session: 's-fail', user: 'u-fail' });
    expect(status).toBe(500);
    const stored = await client.traces.get(applicationId, traceId);
    expect(stored).toMatchObject({ prompt: 'Break', status: 'error', sessionId: 's-fail' });
    expect(stored.errorMessage).toContain('upstream model unavailable');
  });
});
