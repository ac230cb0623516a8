import { clearGlobalAqmHandler, setGlobalAqmHandler } from '@aqm/langchain';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import type { ChatGenerationChunk, ChatResult } from '@langchain/core/outputs';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { context, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelRunSlot } from '../src/model-run-context.js';
import { setupTracing } from './helpers/tracing.js';

/**
 * A chat model whose client is instrumented: each call makes a span of its own from the active
 * context, as the `openai` package's instrumentation does around its HTTP request.
 */
class InstrumentedChatModel extends FakeListChatModel {
  static clientTracer = trace.getTracer('unset');

  #clientSpan<T>(body: () => Promise<T>): Promise<T> {
    const span = InstrumentedChatModel.clientTracer.startSpan('client call', {}, context.active());
    return body().finally(() => span.end());
  }

  override _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    return this.#clientSpan(() => super._generate(messages, options, runManager));
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const span = InstrumentedChatModel.clientTracer.startSpan('client call', {}, context.active());
    try {
      yield* super._streamResponseChunks(messages, options, runManager);
    } finally {
      span.end();
    }
  }
}

function setup() {
  const t = setupTracing();
  InstrumentedChatModel.clientTracer = t.provider.getTracer('client-instrumentation');
  setGlobalAqmHandler(t.handler);
  return t;
}

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

afterEach(() => {
  clearGlobalAqmHandler();
});

// Own file: the global handler lives in LangChain's async-local context, so it must not leak into other tests.
describe("a chat model's client spans, with the handler set globally", () => {
  it('join the chat run of a chain: one trace, the client span under the chat span', async () => {
    const t = setup();
    const chain = ChatPromptTemplate.fromMessages([['human', '{q}']]).pipe(
      new InstrumentedChatModel({ responses: ['Lisbon.'] }),
    );
    await chain.invoke({ q: 'Capital of Portugal?' });
    const chat = t.span('chat');
    const client = t.span('client call');
    expect(client.spanContext().traceId).toBe(chat.spanContext().traceId);
    expect(parentOf(client)).toBe(chat.spanContext().spanId);
    expect(new Set(t.spans().map((s) => s.spanContext().traceId)).size).toBe(1);
  });

  it('join a model invoked on its own, under the request span active around it', async () => {
    const t = setup();
    const model = new InstrumentedChatModel({ responses: ['Paris.'] });
    await t.withActiveSpan('POST /ask', () => model.invoke('Capital of France?'));
    const request = t.span('POST /ask');
    const chat = t.span('chat');
    expect(parentOf(chat)).toBe(request.spanContext().spanId);
    expect(parentOf(t.span('client call'))).toBe(chat.spanContext().spanId);
  });

  it('join a streamed run, for every chunk of it', async () => {
    const t = setup();
    const model = new InstrumentedChatModel({ responses: ['Madrid.'] });
    let text = '';
    for await (const chunk of await model.stream('Capital of Spain?')) text += chunk.content;
    expect(text).toBe('Madrid.');
    expect(parentOf(t.span('client call'))).toBe(t.span('chat').spanContext().spanId);
  });

  it('are left alone once the handler is cleared: the methods are the originals again', async () => {
    const { generate, _streamIterator } = BaseChatModel.prototype;
    const t = setup();
    expect(BaseChatModel.prototype.generate).not.toBe(generate);
    clearGlobalAqmHandler();
    expect(BaseChatModel.prototype.generate).toBe(generate);
    expect(BaseChatModel.prototype._streamIterator).toBe(_streamIterator);
    await new InstrumentedChatModel({ responses: ['Rome.'] }).invoke('Capital of Italy?');
    expect(t.spans().map((s) => s.name)).toEqual(['client call']);
    expect(parentOf(t.span('client call'))).toBeUndefined();
  });
});

describe('ModelRunSlot', () => {
  it('stands for the span active before until a run fills it, then for the first run only', () => {
    const t = setupTracing();
    const outer = t.tracer.startSpan('outer');
    const slot = new ModelRunSlot(outer);
    expect(slot.spanContext()).toEqual(outer.spanContext());
    const run = t.tracer.startSpan('run');
    slot.fill(run);
    slot.fill(t.tracer.startSpan('second run'));
    expect(slot.spanContext()).toEqual(run.spanContext());
    slot.setAttribute('k', 'v');
    slot.end(); // not the slot's to end
    expect(run.isRecording()).toBe(true);
    run.end();
    outer.end();
    expect(t.span('run').attributes.k).toBe('v');
    expect(new ModelRunSlot(undefined).isRecording()).toBe(false);
  });
});
