import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AqmClient } from '@aqm/client';
import { aqm } from '@aqm/express';
import { AqmSpanExporter, AqmSpanProcessor, withAqmAttributes, withLlmSpan } from '@aqm/otel';
import { type RunningServer, startServer } from '@aqm/server';
import type { NextFunction, Request, Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BatchSpanProcessor,
  express,
  NodeTracerProvider,
  SpanEndNotifier,
  SpanKind,
  trace,
} from './helpers.js';

/** A chat app: app-wide tags and metadata before `aqm()`, the signed-in user and the plan in the route. */
function chatApp() {
  const app = express();
  app.use(express.json());
  // A scope around the rest of the request: the request span aqm() starts next gets its values too.
  app.use((_req: Request, _res: Response, next: NextFunction) =>
    withAqmAttributes({ tags: ['api'], metadata: { route: 'v1' } }, next),
  );
  app.use(aqm<Request>());
  app.post('/ask', async (req, res, next) => {
    const { message, plan, signedInUser } = req.body as {
      message: string;
      plan: string;
      signedInUser?: string;
    };
    res.setHeader('x-trace-id', trace.getActiveSpan()?.spanContext().traceId ?? '');
    try {
      const reply = await withAqmAttributes(
        { userId: signedInUser, metadata: { plan }, tags: ['chat'] },
        () =>
          withLlmSpan({ model: 'fake-model', provider: 'fake', prompt: message }, async (span) => {
            await Promise.resolve();
            const answer = `Answer to: ${message}`;
            span.setResponse(answer);
            return answer;
          }),
      );
      res.json({ reply });
    } catch (error) {
      next(error);
    }
  });
  return app;
}

const setups = [
  { name: 'AqmSpanProcessor', processor: (o: object) => new AqmSpanProcessor(o) },
  { name: 'AqmSpanExporter', processor: (o: object) => new BatchSpanProcessor(new AqmSpanExporter(o)) },
];

describe.each(setups)(
  'aqm() and withAqmAttributes in an Express app, through $name → local service',
  (setup) => {
    const apiKey = `express-attributes-${randomUUID()}`;
    let service: RunningServer;
    let client: AqmClient;
    let applicationId: string;
    let provider: InstanceType<typeof NodeTracerProvider>;
    const notifier = new SpanEndNotifier();
    let server: Server;
    let appUrl: string;

    beforeAll(async () => {
      service = await startServer({ apiKeys: [{ key: apiKey, projectId: 'express-attributes' }] });
      client = new AqmClient({ apiKey, baseUrl: service.url });
      applicationId = (await client.applications.create({ name: `express-attributes-${randomUUID()}` })).id;
      const processor = setup.processor({ apiKey, baseUrl: service.url, applicationId });
      provider = new NodeTracerProvider({ spanProcessors: [processor, notifier] });
      provider.register();
      server = createServer(chatApp());
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
      await provider?.shutdown();
      trace.disable();
      await client?.close();
      await service?.close();
    });

    /** Asks the app with the user and session headers and returns the stored record of its trace. */
    async function ask(body: object, headers: Record<string, string>) {
      const response = await fetch(`${appUrl}/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      const traceId = response.headers.get('x-trace-id') ?? '';
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      await notifier.waitFor(
        (span) => span.kind === SpanKind.SERVER && span.spanContext().traceId === traceId,
        `for trace ${traceId}`,
      );
      await provider.forceFlush();
      return client.traces.get(applicationId, traceId);
    }

    it('the headers give user and session; code adds metadata and tags of the app and the route', async () => {
      const stored = await ask(
        { message: 'Which plan?', plan: 'pro' },
        { 'x-user-id': 'header-user', 'x-session-id': 'header-session' },
      );
      expect(stored).toMatchObject({
        prompt: 'Which plan?',
        response: 'Answer to: Which plan?',
        userId: 'header-user',
        sessionId: 'header-session',
      });
      expect(stored.metadata).toMatchObject({ plan: 'pro', route: 'v1', 'aqm.tags': '["api","chat"]' });
      const requestSpan = stored.spans.find((span) => span.kind === 'server');
      expect(requestSpan?.attributes['aqm.tags']).toEqual(['api']);
    });

    it('a userId given in code wins over the x-user-id header; the header session stays', async () => {
      const stored = await ask(
        { message: 'Who am I?', plan: 'free', signedInUser: 'verified-user' },
        { 'x-user-id': 'claimed-user', 'x-session-id': 'header-session-2' },
      );
      expect(stored.userId).toBe('verified-user');
      expect(stored.sessionId).toBe('header-session-2');
      expect(stored.metadata).toMatchObject({ plan: 'free' });
    });
  },
);
