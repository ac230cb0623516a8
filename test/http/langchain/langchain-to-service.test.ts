import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// LangChain and the OpenTelemetry SDK are development dependencies of @aqm/langchain, taken from there.
import {
  AIMessage,
  type BaseMessage,
  ChatPromptTemplate,
  Document,
  FakeRetriever,
  HumanMessage,
  RunnableLambda,
  RunnableSequence,
  ScriptedChatModel,
  SpanKind,
  StringOutputParser,
  type ToolMessage,
  tool,
  trace,
} from '../../../packages/langchain/test/helpers/http-test-deps.js';
import { startTracedLangchain, type TracedLangchain } from './helpers/traced-langchain.js';

describe('AqmCallbackHandler → AqmSpanProcessor → local service', () => {
  let lc: TracedLangchain;
  beforeAll(async () => {
    lc = await startTracedLangchain('langchain-e2e');
  });
  afterAll(async () => {
    await lc?.close();
  });

  it('a prompt → model → parser chain arrives with prompt, response, model, provider and tokens', async () => {
    lc.ended.reset();
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
      { callbacks: [lc.handler], metadata: { session_id: 'geo-session', user_id: 'geo-user' } },
    );
    expect(answer).toBe('Oslo is the capital of Norway.');
    await lc.processor.forceFlush();

    const traceId = lc.traceIdOf('invoke_workflow geo_chain');
    const stored = await lc.client.traces.get(lc.applicationId, traceId);
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
    const { data } = await lc.client.traces.list(lc.applicationId);
    expect(data.map((summary) => summary.traceId)).toContain(traceId);
  });

  it('a retrieving, tool-using agent under a request span arrives with summed tokens and its context', async () => {
    lc.ended.reset();
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

    const tracer = lc.provider.getTracer('e2e-app');
    const traceId = await tracer.startActiveSpan('POST /chat', { kind: SpanKind.SERVER }, async (request) => {
      try {
        const result = await agent.invoke({ input: 'Weather in Bergen?' }, { callbacks: [lc.handler] });
        expect(result).toEqual({ output: 'Bergen is rainy today; pack an umbrella.' });
        return request.spanContext().traceId;
      } finally {
        request.end();
      }
    });
    await lc.processor.forceFlush();

    expect(lc.traceIdOf('invoke_agent travel_agent')).toBe(traceId);
    const stored = await lc.client.traces.get(lc.applicationId, traceId);
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
    lc.ended.reset();
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
    await expect(chain.invoke('Summarise this', { callbacks: [lc.handler] })).rejects.toThrow(
      'post-processing failed',
    );
    await lc.processor.forceFlush();

    const traceId = lc.traceIdOf('invoke_workflow fragile_chain');
    const stored = await lc.client.traces.get(lc.applicationId, traceId);
    expect(stored).toMatchObject({ status: 'error', prompt: 'Summarise this', model: 'e2e-chat-model' });
    expect(stored.errorMessage).toContain('post-processing failed');
    expect(lc.handler.openRunCount).toBe(0);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
