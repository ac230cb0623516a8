import { randomUUID } from 'node:crypto';
import { AqmClient } from '@aqm/client';
import { AqmCallbackHandler } from '@aqm/langchain';
import { AqmSpanProcessor } from '@aqm/otel';
import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// LangChain and the OpenTelemetry SDK are development dependencies of @aqm/langchain, taken from there.
import {
  AIMessage,
  AsyncLocalStorageContextManager,
  type BaseMessage,
  BasicTracerProvider,
  ChatPromptTemplate,
  context,
  Document,
  FakeRetriever,
  HumanMessage,
  InMemorySpanExporter,
  RunnableLambda,
  RunnableSequence,
  ScriptedChatModel,
  SimpleSpanProcessor,
  SpanKind,
  StringOutputParser,
  type ToolMessage,
  tool,
  trace,
} from '../../../packages/langchain/test/helpers/http-test-deps.js';

const API_KEY = `langchain-e2e-${randomUUID()}`;

describe('AqmCallbackHandler → AqmSpanProcessor → local service', () => {
  let service: RunningServer;
  let client: AqmClient;
  let applicationId: string;
  let processor: AqmSpanProcessor;
  let provider: InstanceType<typeof BasicTracerProvider>;
  const ended = new InMemorySpanExporter();
  let handler: AqmCallbackHandler;

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    service = await startServer({ apiKeys: [{ key: API_KEY, projectId: 'langchain-e2e' }] });
    client = new AqmClient({ apiKey: API_KEY, baseUrl: service.url });
    applicationId = (await client.applications.create({ name: `langchain-e2e-${randomUUID()}` })).id;
    processor = new AqmSpanProcessor({ apiKey: API_KEY, baseUrl: service.url, applicationId });
    provider = new BasicTracerProvider({ spanProcessors: [processor, new SimpleSpanProcessor(ended)] });
    handler = new AqmCallbackHandler({ tracerProvider: provider });
  });

  afterAll(async () => {
    await provider.shutdown();
    context.disable();
    await service.close();
  });

  /** The trace id of the one ended span named `name`. */
  function traceIdOf(name: string): string {
    const spans = ended.getFinishedSpans().filter((span) => span.name === name);
    expect(spans, `spans named ${name}`).toHaveLength(1);
    return spans[0]!.spanContext().traceId;
  }

  it('a prompt → model → parser chain arrives with prompt, response, model, provider and tokens', async () => {
    ended.reset();
    const model = new ScriptedChatModel({
      model: 'e2e-chat-model',
      replies: [
        new AIMessage({
          content: 'Oslo is the capital of Norway.',
          usage_metadata: { input_tokens: 21, output_tokens: 7, total_tokens: 28 },
        }),
      ],
    });
    const chain = RunnableSequence.from([
      ChatPromptTemplate.fromMessages([
        ['system', 'You are a geography assistant.'],
        ['human', '{question}'],
      ]),
      model,
      new StringOutputParser(),
    ]).withConfig({ runName: 'geo_chain' });

    const answer = await chain.invoke(
      { question: 'What is the capital of Norway?' },
      { callbacks: [handler], metadata: { session_id: 'geo-session', user_id: 'geo-user' } },
    );
    expect(answer).toBe('Oslo is the capital of Norway.');
    await processor.forceFlush();

    const traceId = traceIdOf('invoke_workflow geo_chain');
    const stored = await client.traces.get(applicationId, traceId);
    expect(stored).toMatchObject({
      traceId,
      status: 'success',
      prompt: 'What is the capital of Norway?',
      response: 'Oslo is the capital of Norway.',
      model: 'e2e-chat-model',
      provider: 'scripted',
      usage: { inputTokens: 21, outputTokens: 7, totalTokens: 28 },
      sessionId: 'geo-session',
      userId: 'geo-user',
    });
    expect(stored.spans.map((span) => span.name).sort()).toEqual(
      [
        'chat e2e-chat-model',
        'invoke_workflow ChatPromptTemplate',
        'invoke_workflow StrOutputParser',
        'invoke_workflow geo_chain',
      ].sort(),
    );
    const { data } = await client.traces.list(applicationId);
    expect(data.map((summary) => summary.traceId)).toContain(traceId);
  });

  it('a retrieving, tool-using agent under a request span arrives with summed tokens and its context', async () => {
    ended.reset();
    const model = new ScriptedChatModel({
      model: 'e2e-agent-model',
      replies: [
        new AIMessage({
          content: '',
          tool_calls: [{ id: 'call_42', name: 'get_weather', args: { city: 'Bergen' }, type: 'tool_call' }],
          usage_metadata: { input_tokens: 30, output_tokens: 6, total_tokens: 36 },
        }),
        new AIMessage({
          content: 'Bergen is rainy today; pack an umbrella.',
          usage_metadata: { input_tokens: 55, output_tokens: 10, total_tokens: 65 },
        }),
      ],
    });
    const getWeather = tool(async (input: unknown) => `Rain, 9°C in ${(input as { city: string }).city}`, {
      name: 'get_weather',
      description: 'Current weather of a city',
      schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
    const retriever = new FakeRetriever({
      output: [new Document({ pageContent: 'Bergen is the rainiest city in Europe.' })],
    });
    const agent = RunnableLambda.from(async (input: { input: string }, config) => {
      const docs = await retriever.invoke(input.input, config);
      const messages: BaseMessage[] = [
        new HumanMessage(`${input.input}\nNotes: ${docs[0]?.pageContent ?? ''}`),
      ];
      for (let step = 0; step < 3; step++) {
        const reply = await model.invoke(messages, config);
        messages.push(reply);
        if (!reply.tool_calls?.length) return { output: String(reply.content) };
        for (const call of reply.tool_calls) {
          const toolCall = {
            id: call.id ?? '',
            name: call.name,
            args: call.args,
            type: 'tool_call' as const,
          };
          const result: ToolMessage = await getWeather.invoke(toolCall, config);
          messages.push(result);
        }
      }
      throw new Error('agent did not finish');
    }).withConfig({ runName: 'travel_agent' });

    const tracer = provider.getTracer('e2e-app');
    const traceId = await tracer.startActiveSpan('POST /chat', { kind: SpanKind.SERVER }, async (request) => {
      try {
        const result = await agent.invoke({ input: 'Weather in Bergen?' }, { callbacks: [handler] });
        expect(result).toEqual({ output: 'Bergen is rainy today; pack an umbrella.' });
        return request.spanContext().traceId;
      } finally {
        request.end();
      }
    });
    await processor.forceFlush();

    expect(traceIdOf('invoke_agent travel_agent')).toBe(traceId);
    const stored = await client.traces.get(applicationId, traceId);
    expect(stored).toMatchObject({
      status: 'success',
      prompt: 'Weather in Bergen?',
      response: 'Bergen is rainy today; pack an umbrella.',
      model: 'e2e-agent-model',
      usage: { inputTokens: 85, outputTokens: 16, totalTokens: 101 },
      context: ['Bergen is the rainiest city in Europe.'],
    });
    const names = stored.spans.map((span) => span.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /chat',
        'invoke_agent travel_agent',
        'retrieval FakeRetriever',
        'execute_tool get_weather',
      ]),
    );
    expect(names.filter((name) => name === 'chat e2e-agent-model')).toHaveLength(2);
    const toolSpan = stored.spans.find((span) => span.name === 'execute_tool get_weather');
    expect(toolSpan?.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'call_42',
      'gen_ai.tool.call.result': 'Rain, 9°C in Bergen',
    });
  });

  it('a failing chain arrives as an error trace with its message', async () => {
    ended.reset();
    const model = new ScriptedChatModel({
      model: 'e2e-chat-model',
      replies: [
        new AIMessage({
          content: 'draft',
          usage_metadata: { input_tokens: 3, output_tokens: 1, total_tokens: 4 },
        }),
      ],
    });
    const chain = RunnableSequence.from([
      model,
      RunnableLambda.from((): string => {
        throw new Error('post-processing failed');
      }),
    ]).withConfig({ runName: 'fragile_chain' });
    await expect(chain.invoke('Summarise this', { callbacks: [handler] })).rejects.toThrow(
      'post-processing failed',
    );
    await processor.forceFlush();

    const traceId = traceIdOf('invoke_workflow fragile_chain');
    const stored = await client.traces.get(applicationId, traceId);
    expect(stored).toMatchObject({ status: 'error', prompt: 'Summarise this', model: 'e2e-chat-model' });
    expect(stored.errorMessage).toContain('post-processing failed');
    expect(handler.openRunCount).toBe(0);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
