import { createRequire } from 'node:module';
import { AqmSpanExporter, AqmSpanProcessor, withAqmAttributes, withLlmSpan } from '@aqm/otel';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';

/** A GenAI chat span started in the active context (so a `withAqmAttributes` scope reaches it). */
function endChat(tracer: Tracer, prompt: string, attributes: Record<string, string> = {}): void {
  const text = (role: string, content: string) =>
    JSON.stringify([{ role, parts: [{ type: 'text', content }] }]);
  tracer
    .startSpan('chat gpt-4o-mini', {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.input.messages': text('user', prompt),
        'gen_ai.output.messages': text('assistant', `answer to ${prompt}`),
        ...attributes,
      },
    })
    .end();
}

/** Runs `fn` inside an active app span (not an LLM span) and ends it; returns the trace id. */
async function inAppSpan(tracer: Tracer, fn: (span: Span) => Promise<void> | void): Promise<string> {
  return tracer.startActiveSpan('handle-request', { kind: SpanKind.SERVER }, async (span) => {
    await fn(span);
    span.end();
    return span.spanContext().traceId;
  });
}

/** A registered tracing setup: the AsyncLocalStorage context manager carries a scope across awaits. */
interface Setup {
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

function registeredProvider(processor: SpanProcessor): Setup {
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  provider.register();
  return { flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}

/** `@opentelemetry/sdk-node` is a development dependency of `@aqm/otel`, taken from there. */
const fromOtelPackage = createRequire(new URL('../../../packages/otel/package.json', import.meta.url));
const { NodeSDK } = fromOtelPackage('@opentelemetry/sdk-node') as {
  NodeSDK: new (config: {
    traceExporter: AqmSpanExporter;
    instrumentations: [];
  }) => {
    start(): void;
    shutdown(): Promise<void>;
  };
};

const setups: Array<{ name: string; start: (options: object) => Setup }> = [
  {
    name: 'AqmSpanExporter behind a BatchSpanProcessor',
    start: (o) => registeredProvider(new BatchSpanProcessor(new AqmSpanExporter(o))),
  },
  { name: 'AqmSpanProcessor', start: (o) => registeredProvider(new AqmSpanProcessor(o)) },
  {
    name: "the NodeSDK's traceExporter: AqmSpanExporter",
    start: (o) => {
      const sdk = new NodeSDK({ traceExporter: new AqmSpanExporter(o), instrumentations: [] });
      sdk.start();
      const delegate = (
        trace.getTracerProvider() as unknown as { getDelegate(): { forceFlush(): Promise<void> } }
      ).getDelegate();
      return { flush: () => delegate.forceFlush(), shutdown: () => sdk.shutdown() };
    },
  },
];

describe.each(setups)('user, session, metadata and tags through $name → local service', ({ start }) => {
  let service: TestService;
  let applicationId: string;
  let setup: Setup;
  const tracer = () => trace.getTracer('app');
  const stored = async (traceId: string) => {
    await setup.flush();
    return service.client.traces.get(applicationId, traceId);
  };

  beforeAll(async () => {
    service = await startTestService('trace-attributes');
    applicationId = await service.createApp('trace-attributes');
    setup = start({ apiKey: service.apiKey, baseUrl: service.srv.url, applicationId });
  });

  afterAll(async () => {
    await setup?.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
    await service?.close();
  });

  it('reads aqm.* attributes set by hand on a non-LLM parent span; they beat user.id / session.id', async () => {
    const root = tracer().startSpan(
      'handle-request',
      {
        kind: SpanKind.SERVER,
        attributes: {
          'aqm.user.id': 'user-7',
          'aqm.session.id': 'session-7',
          'aqm.metadata.plan': 'pro',
          'aqm.metadata.seats': 3,
          'aqm.metadata.trial': false,
          'aqm.tags': ['beta', 'eu'],
          'user.id': 'from-a-header',
          'session.id': 'from-a-header',
        },
      },
      ROOT_CONTEXT,
    );
    context.with(trace.setSpan(ROOT_CONTEXT, root), () => endChat(tracer(), 'Which plan?'));
    root.end();
    const record = await stored(root.spanContext().traceId);
    expect(record.userId).toBe('user-7');
    expect(record.sessionId).toBe('session-7');
    expect(record.metadata).toMatchObject({
      plan: 'pro',
      seats: 3,
      trial: false,
      'aqm.tags': '["beta","eu"]',
    });
  });

  it('takes the value nearest the model call when spans disagree; tags of every span add up', async () => {
    const traceId = await inAppSpan(tracer(), (span) => {
      span.setAttributes({ 'aqm.user.id': 'outer', 'aqm.metadata.tier': 'outer', 'aqm.tags': ['request'] });
      tracer()
        .startSpan('cache lookup', { attributes: { 'aqm.user.id': 'sibling', 'aqm.tags': ['cache'] } })
        .end();
      endChat(tracer(), 'Who?', { 'aqm.user.id': 'inner' });
    });
    const record = await stored(traceId);
    expect(record.userId).toBe('inner');
    expect(record.metadata).toMatchObject({ tier: 'outer', 'aqm.tags': '["request","cache"]' });
  });

  it('withAqmAttributes gives its values to every span started inside it, across awaits, nested scopes merged', async () => {
    const traceId = await withAqmAttributes(
      {
        userId: 'user-42',
        sessionId: 'conversation-9',
        metadata: { tenant: 'acme', region: 'eu' },
        tags: ['chat'],
      },
      async () => {
        // Real I/O between entering the scope and starting the spans.
        await service.client.applications.get(applicationId);
        return withAqmAttributes({ metadata: { tenant: 'globex' }, tags: ['retry', 'chat'] }, async () => {
          await service.client.applications.get(applicationId);
          // No span is active here: the model call is the root of its own trace.
          endChat(tracer(), 'Hello?');
          return await new Promise<string>((resolve) =>
            tracer().startActiveSpan('answer', (span) => {
              endChat(tracer(), 'Hello again?');
              span.end();
              resolve(span.spanContext().traceId);
            }),
          );
        });
      },
    );
    const record = await stored(traceId);
    expect(record.userId).toBe('user-42');
    expect(record.sessionId).toBe('conversation-9');
    expect(record.metadata).toMatchObject({ tenant: 'globex', region: 'eu', 'aqm.tags': '["chat","retry"]' });
    for (const span of record.spans) expect(span.attributes['aqm.user.id']).toBe('user-42');
  });

  it('withLlmSpan takes userId, sessionId, metadata and tags; its own win over the enclosing scope', async () => {
    let traceId = '';
    await withAqmAttributes(
      { userId: 'scope-user', sessionId: 'scope-session', metadata: { a: 1 }, tags: ['scope'] },
      () =>
        withLlmSpan(
          {
            model: 'gpt-4o',
            provider: 'openai',
            prompt: 'Hi',
            userId: 'call-user',
            metadata: { b: true, a: 2 },
            tags: ['llm'],
          },
          (span) => {
            traceId = span.span.spanContext().traceId;
            span.setResponse('Hello');
          },
        ),
    );
    const record = await stored(traceId);
    expect(record.userId).toBe('call-user');
    expect(record.sessionId).toBe('scope-session');
    expect(record.metadata).toMatchObject({ a: 2, b: true, 'aqm.tags': '["scope","llm"]' });
  });

  it('rejects options of the wrong type with a TypeError naming them, before running the call', async () => {
    let ran = false;
    const run = () => {
      ran = true;
    };
    await expect(
      withLlmSpan({ model: 'm', provider: 'p', prompt: 'q', userId: 42 as unknown as string }, run),
    ).rejects.toThrow(new TypeError('Expected `userId` to be a string, got `42` (number)'));
    await expect(
      withLlmSpan({ model: 'm', provider: 'p', prompt: 'q', metadata: { plan: { id: 1 } } as never }, run),
    ).rejects.toThrow(/`metadata\.plan` to be a string, a finite number or a boolean/);
    expect(() => withAqmAttributes({ tags: 'beta' as never }, run)).toThrow(
      new TypeError('Expected `tags` to be an array of strings, got `beta` (string)'),
    );
    expect(() => withAqmAttributes({ tags: ['ok', 7 as never] }, run)).toThrow(
      /`tags\[1\]` to be a non-empty string/,
    );
    expect(() => withAqmAttributes({ sessionId: ['s'] as never }, run)).toThrow(/`sessionId` to be a string/);
    expect(ran).toBe(false);
  });

  it('cuts an id beyond 256 characters (the record keeps the cut id)', async () => {
    const traceId = await withAqmAttributes({ userId: 'u'.repeat(300) }, () =>
      inAppSpan(tracer(), () => endChat(tracer(), 'Long?')),
    );
    expect((await stored(traceId)).userId).toBe('u'.repeat(256));
  });
});
