import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { FakeListChatModel, FakeLLM, FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from './helpers/scripted-chat-model.js';
import { ERROR, jsonAttribute, parentIdOf, setupTracing } from './helpers/tracing.js';

describe('chat model runs', () => {
  it('a single call with callbacks becomes a CLIENT chat span with input and output messages', async () => {
    const t = setupTracing();
    const model = new FakeListChatModel({ responses: ['Paris is sunny.'] });
    const reply = await model.invoke(
      [new SystemMessage('Be brief.'), new HumanMessage('Weather in Paris?')],
      {
        callbacks: [t.handler],
      },
    );
    expect(reply.content).toBe('Paris is sunny.');
    const span = t.span('chat');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes['gen_ai.operation.name']).toBe('chat');
    expect(span.attributes['gen_ai.provider.name']).toBe('fakelistchatmodel');
    expect(jsonAttribute(span, 'gen_ai.input.messages')).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
    ]);
    expect(jsonAttribute(span, 'gen_ai.output.messages')).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Paris is sunny.' }], finish_reason: 'stop' },
    ]);
    expect(span.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(span.status.code).not.toBe(ERROR);
    expect(t.handler.openRunCount).toBe(0);
  });

  it('records model, provider, request parameters, token usage and response model', async () => {
    const t = setupTracing();
    const model = new ScriptedChatModel({
      model: 'gpt-test-mini',
      replies: [
        new AIMessage({
          content: 'Hello!',
          usage_metadata: { input_tokens: 12, output_tokens: 3, total_tokens: 15 },
          response_metadata: { model_name: 'gpt-test-mini-2025', finish_reason: 'stop', id: 'resp_1' },
        }),
      ],
    });
    await model.invoke('Hi', { callbacks: [t.handler] });
    const span = t.span('chat gpt-test-mini');
    expect(span.attributes).toMatchObject({
      'gen_ai.request.model': 'gpt-test-mini',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.max_tokens': 256,
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.response.model': 'gpt-test-mini-2025',
      'gen_ai.response.id': 'resp_1',
    });
  });

  it('assembles a streamed answer into the output message', async () => {
    const t = setupTracing();
    const model = new FakeListChatModel({ responses: ['Streamed reply'] });
    const chunks: string[] = [];
    for await (const chunk of await model.stream('Say something', { callbacks: [t.handler] })) {
      chunks.push(String(chunk.content));
    }
    expect(chunks.length).toBe('Streamed reply'.length);
    const span = t.span('chat');
    expect(jsonAttribute(span, 'gen_ai.output.messages')).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Streamed reply' }], finish_reason: 'stop' },
    ]);
  });

  it('uses the streamed tokens when the final result carries no text', () => {
    const t = setupTracing();
    const runId = 'run-stream-1';
    t.handler.handleChatModelStart(
      { lc: 1, type: 'not_implemented', id: ['x', 'ChatThing'] },
      [[new HumanMessage('q')]],
      runId,
    );
    for (const token of ['Hel', 'lo ', 'world'])
      t.handler.handleLLMNewToken(token, { prompt: 0, completion: 0 }, runId);
    t.handler.handleLLMEnd({ generations: [[{ text: '' }]] }, runId);
    expect(jsonAttribute(t.span('chat'), 'gen_ai.output.messages')).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Hello world' }], finish_reason: 'stop' },
    ]);
    expect(t.span('chat').attributes['gen_ai.provider.name']).toBe('thing');
  });

  it('keeps at most maxValueChars of streamed tokens, counting the rest in the marker', () => {
    const t = setupTracing({ maxValueChars: 64 });
    const runId = 'run-stream-2';
    t.handler.handleChatModelStart(
      { lc: 1, type: 'not_implemented', id: ['x', 'ChatThing'] },
      [[new HumanMessage('q')]],
      runId,
    );
    for (let i = 0; i < 10; i++)
      t.handler.handleLLMNewToken('0123456789', { prompt: 0, completion: 0 }, runId);
    t.handler.handleLLMEnd({ generations: [[{ text: '' }]] }, runId);
    const [output] = jsonAttribute(t.span('chat'), 'gen_ai.output.messages') as [
      { parts: [{ content: string }] },
    ];
    expect(output.parts[0].content).toBe(`${'0123456789'.repeat(7).slice(0, 64)}…[truncated 36 chars]`);
  });

  it('maps tool calls of the answer, with their arguments, and finish reason tool_call', async () => {
    const t = setupTracing();
    const model = new FakeStreamingChatModel({
      responses: [new AIMessage('')],
      chunks: [
        new AIMessageChunk({
          content: '',
          tool_calls: [{ id: 'call_9', name: 'get_weather', args: { city: 'Oslo' } }],
        }),
      ],
    });
    const answer = await model.invoke('Weather in Oslo?', { callbacks: [t.handler] });
    expect(answer.tool_calls?.[0]?.name).toBe('get_weather');
    const output = jsonAttribute(t.span('chat'), 'gen_ai.output.messages');
    expect(output).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_9', name: 'get_weather', arguments: { city: 'Oslo' } }],
        finish_reason: 'tool_call',
      },
    ]);
  });

  it('records a failing model call as an error with the exception', async () => {
    const t = setupTracing();
    const model = new FakeStreamingChatModel({ thrownErrorString: 'upstream exploded' });
    await expect(model.invoke('hi', { callbacks: [t.handler] })).rejects.toThrow('upstream exploded');
    const span = t.span('chat');
    expect(span.status).toEqual({ code: ERROR, message: 'upstream exploded' });
    expect(span.attributes['error.type']).toBe('Error');
    expect(span.events.map((e) => e.name)).toContain('exception');
    expect(t.handler.openRunCount).toBe(0);
  });

  it('a plain LLM call becomes a text_completion span with the prompt as a user message', async () => {
    const t = setupTracing();
    const llm = new FakeLLM({ response: 'Completion text' });
    await llm.invoke('Complete this', { callbacks: [t.handler] });
    const span = t.span('text_completion');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(jsonAttribute(span, 'gen_ai.input.messages')).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Complete this' }] },
    ]);
    expect(jsonAttribute(span, 'gen_ai.output.messages')).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Completion text' }], finish_reason: 'stop' },
    ]);
  });

  it('a handler set on the model itself (constructor callbacks) traces every call', async () => {
    const t = setupTracing();
    const model = new FakeListChatModel({ responses: ['a', 'b'], callbacks: [t.handler] });
    await model.invoke('one');
    await model.invoke('two');
    expect(t.spans().map((s) => s.name)).toEqual(['chat', 'chat']);
  });

  it('a root model run is a child of the span active when it starts', async () => {
    const t = setupTracing();
    const model = new FakeListChatModel({ responses: ['ok'] });
    const request = await t.withActiveSpan('POST /chat', async (span) => {
      await model.invoke('hi', { callbacks: [t.handler] });
      return span;
    });
    const chat = t.span('chat');
    expect(parentIdOf(chat)).toBe(request.spanContext().spanId);
    expect(chat.spanContext().traceId).toBe(request.spanContext().traceId);
  });

  it('captureContent false keeps model, usage and errors but no messages', async () => {
    const t = setupTracing({ captureContent: false });
    const model = new ScriptedChatModel({
      replies: [
        new AIMessage({
          content: 'secret',
          usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
        }),
      ],
    });
    await model.invoke('my secret question', { callbacks: [t.handler] });
    const span = t.span('chat scripted-1');
    expect(span.attributes['gen_ai.input.messages']).toBeUndefined();
    expect(span.attributes['gen_ai.output.messages']).toBeUndefined();
    expect(span.attributes['gen_ai.usage.output_tokens']).toBe(2);
    expect(JSON.stringify(span.attributes)).not.toContain('secret');
  });
});
