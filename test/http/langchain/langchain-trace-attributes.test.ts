import { randomUUID } from 'node:crypto';
import { AqmClient } from '@aqm/client';
import { AqmCallbackHandler } from '@aqm/langchain';
import { AqmSpanProcessor, withAqmAttributes } from '@aqm/otel';
import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// LangChain and the OpenTelemetry SDK are development dependencies of @aqm/langchain, taken from there.
import {
  AIMessage,
  AsyncLocalStorageContextManager,
  BasicTracerProvider,
  ChatPromptTemplate,
  context,
  InMemorySpanExporter,
  RunnableSequence,
  ScriptedChatModel,
  SimpleSpanProcessor,
  StringOutputParser,
} from '../../../packages/langchain/test/helpers/http-test-deps.js';

const API_KEY = `langchain-attributes-${randomUUID()}`;

describe('LangChain tags and metadata, and withAqmAttributes around a chain → local service', () => {
  let service: RunningServer;
  let client: AqmClient;
  let applicationId: string;
  let processor: AqmSpanProcessor;
  let provider: InstanceType<typeof BasicTracerProvider>;
  const ended = new InMemorySpanExporter();
  let handler: AqmCallbackHandler;

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    service = await startServer({ apiKeys: [{ key: API_KEY, projectId: 'langchain-attributes' }] });
    client = new AqmClient({ apiKey: API_KEY, baseUrl: service.url });
    applicationId = (await client.applications.create({ name: `langchain-attributes-${randomUUID()}` })).id;
    processor = new AqmSpanProcessor({ apiKey: API_KEY, baseUrl: service.url, applicationId });
    provider = new BasicTracerProvider({ spanProcessors: [processor, new SimpleSpanProcessor(ended)] });
    handler = new AqmCallbackHandler({ tracerProvider: provider });
  });

  afterAll(async () => {
    await provider?.shutdown();
    context.disable();
    await service?.close();
  });

  /** A template → scripted chat model → parser chain named `name`. */
  function chain(name: string) {
    const model = new ScriptedChatModel({
      model: 'attributes-model',
      replies: [new AIMessage({ content: 'Oslo.' })],
    });
    return RunnableSequence.from([
      ChatPromptTemplate.fromMessages([['human', '{question}']]),
      model,
      new StringOutputParser(),
    ]).withConfig({ runName: name });
  }

  /** The stored record of the trace whose root span is `invoke_workflow {name}`. */
  async function storedFor(name: string) {
    await processor.forceFlush();
    const roots = ended.getFinishedSpans().filter((span) => span.name === `invoke_workflow ${name}`);
    expect(roots, `spans named invoke_workflow ${name}`).toHaveLength(1);
    return client.traces.get(applicationId, roots[0]!.spanContext().traceId);
  }

  it("a call's tags and metadata reach the record's metadata (LangChain's own left out); ids still from metadata", async () => {
    await chain('tagged_chain').invoke(
      { question: 'Capital of Norway?' },
      {
        callbacks: [handler],
        tags: ['support', 'beta'],
        metadata: {
          tenant: 'acme',
          seats: 5,
          session_id: 'lc-session',
          user_id: 'lc-user',
          nested: { a: 1 },
        },
      },
    );
    const stored = await storedFor('tagged_chain');
    expect(stored.userId).toBe('lc-user');
    expect(stored.sessionId).toBe('lc-session');
    expect(stored.metadata).toMatchObject({ tenant: 'acme', seats: 5, 'aqm.tags': '["support","beta"]' });
    const keys = Object.keys(stored.metadata ?? {});
    expect(keys.filter((key) => /^(ls_|session_id|user_id|nested)/.test(key))).toEqual([]);
  });

  it('withAqmAttributes around the chain: its ids beat LangChain metadata ids, the run’s own metadata beats the scope’s, tags add up', async () => {
    await withAqmAttributes(
      { userId: 'app-user', metadata: { tenant: 'scope-tenant', region: 'eu' }, tags: ['scope'] },
      async () => {
        await client.applications.get(applicationId); // real I/O before the chain starts
        await chain('scoped_chain').invoke(
          { question: 'Capital of Norway?' },
          {
            callbacks: [handler],
            tags: ['lc'],
            metadata: { tenant: 'acme', user_id: 'lc-user', session_id: 'lc-session' },
          },
        );
      },
    );
    const stored = await storedFor('scoped_chain');
    expect(stored.userId).toBe('app-user');
    expect(stored.sessionId).toBe('lc-session');
    expect(stored.metadata).toMatchObject({ tenant: 'acme', region: 'eu', 'aqm.tags': '["lc","scope"]' });
  });
});
