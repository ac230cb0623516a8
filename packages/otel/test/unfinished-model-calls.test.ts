import { ROOT_CONTEXT, type Span, trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { startsAsModelCall } from '../src/mapping/model-call-at-start.js';
import { AqmSpanProcessor } from '../src/processor.js';
import { aqmOptions } from './export-helpers/otel-setup.js';
import { withServiceAndStderr } from './export-helpers/stderr-setup.js';

// OpenInference and Traceloop end a model call's span only when the call succeeds: a failed call
// (the app catches the error) leaves it open, and its trace's ended spans are the app's alone.
// AqmSpanProcessor sees the call start, so the trace waits for it at its root and, if it never
// ends, is an error record with the span as it was: never silent.
const setup = withServiceAndStderr();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const QUESTION = 'What is the capital of France?';
const TRACELOOP = '@traceloop/instrumentation-openai';
const OPENINFERENCE = '@arizeai/openinference-instrumentation-openai';

/** Traceloop's attributes at start: the operation, the model, the input messages. */
const TRACELOOP_START = {
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': 'gpt-4o-mini',
  'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: QUESTION }] }]),
};

function setUp() {
  const processor = new AqmSpanProcessor(aqmOptions(setup.service(), { batchDelayMs: 0 }));
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  closers.push(() => provider.shutdown());
  const tracer = (scope: string) => provider.getTracer(scope);
  /** The app's request span and, under it, a model call started by `scope`'s tracer (not ended). */
  const request = (scope: string, attributes: Record<string, string> = TRACELOOP_START) => {
    const app = tracer('app').startSpan('POST /ask', {}, ROOT_CONTEXT);
    const call = tracer(scope).startSpan(
      'chat gpt-4o-mini',
      { attributes },
      trace.setSpan(ROOT_CONTEXT, app),
    );
    return { app, call, traceId: app.spanContext().traceId };
  };
  return { processor, tracer, request };
}

function received() {
  return setup.service().acceptedTraces;
}

describe('a model call whose span has not ended when its trace’s root span does', () => {
  it('ends soon after: one success record with the answer, nothing said', async () => {
    const { processor, request } = setUp();
    const { app, call, traceId } = request(TRACELOOP);
    app.end();
    expect(processor.stats().openTraces).toBe(1); // waiting for the call
    call.setAttribute(
      'gen_ai.output.messages',
      JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Paris.' }] }]),
    );
    call.end();
    await processor.forceFlush();
    expect(received()).toHaveLength(1);
    expect(received()[0]).toMatchObject({ traceId, prompt: QUESTION, response: 'Paris.', status: 'success' });
    expect(received()[0]?.errorMessage).toBeUndefined();
    expect(setup.stderrLines()).toEqual([]);
  });

  it('never ends, flushed: one error record (the question, no response), the scope said on stderr', async () => {
    const { processor, request } = setUp();
    const { app, traceId } = request(TRACELOOP);
    app.end();
    await processor.forceFlush();
    expect(received()).toHaveLength(1);
    expect(received()[0]).toMatchObject({ traceId, prompt: QUESTION, response: '', status: 'error' });
    expect(received()[0]?.errorMessage).toMatch(
      /^The model call's span had not ended when its trace was recorded, \d+ ms after the trace's root span ended/,
    );
    const lines = setup.stderrLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`A model call's span (instrumentation ${TRACELOOP}) had not ended`);
    expect(lines[0]).toContain(traceId);
  });

  it('ends after it was recorded as unfinished: counted late and said, not a second record', async () => {
    const { processor, request } = setUp();
    const { app, call } = request(TRACELOOP);
    app.end();
    await processor.forceFlush();
    call.end();
    await processor.forceFlush();
    expect(received()).toHaveLength(1);
    expect(setup.stderrLines().some((line) => line.includes('ended after the trace'))).toBe(true);
  });

  it('OpenInference (attributes set just after start): the same error record', async () => {
    const { processor, tracer } = setUp();
    const app = tracer('app').startSpan('POST /ask', {}, ROOT_CONTEXT);
    // OpenInference's tracer starts the span without attributes and sets them right after.
    const call: Span = tracer(OPENINFERENCE).startSpan(
      'OpenAI Chat Completions',
      {},
      trace.setSpan(ROOT_CONTEXT, app),
    );
    call.setAttributes({
      'openinference.span.kind': 'LLM',
      'llm.model_name': 'gpt-4o-mini',
      'llm.input_messages.0.message.role': 'user',
      'llm.input_messages.0.message.content': QUESTION,
    });
    app.end();
    await processor.forceFlush();
    expect(received()).toHaveLength(1);
    expect(received()[0]).toMatchObject({ prompt: QUESTION, response: '', status: 'error' });
    expect(setup.stderrLines()[0]).toContain(`(instrumentation ${OPENINFERENCE})`);
  });

  it('an OpenInference span that is not a model call (a chain) is not waited for', async () => {
    const { processor, tracer } = setUp();
    const app = tracer('app').startSpan('POST /ask', {}, ROOT_CONTEXT);
    const chain = tracer(OPENINFERENCE).startSpan('chain', {}, trace.setSpan(ROOT_CONTEXT, app));
    chain.setAttribute('openinference.span.kind', 'CHAIN');
    app.end();
    expect(processor.stats()).toMatchObject({ openTraces: 0, skippedTraces: 1 });
    chain.end();
  });

  it('an app span left open under its root is not waited for either', () => {
    const { processor, tracer } = setUp();
    const app = tracer('app').startSpan('POST /ask', {}, ROOT_CONTEXT);
    const child = tracer('app').startSpan(
      'db query',
      { attributes: { 'db.system': 'postgresql' } },
      trace.setSpan(ROOT_CONTEXT, app),
    );
    app.end();
    expect(processor.stats()).toMatchObject({ openTraces: 0, skippedTraces: 1 });
    child.end();
  });
});

describe('startsAsModelCall', () => {
  it('costs a span that is no model call six key lookups, no more', () => {
    const read: PropertyKey[] = [];
    const attributes = new Proxy(
      { 'http.request.method': 'POST', 'url.path': '/chat' },
      {
        get(target, key, receiver) {
          read.push(key);
          return Reflect.get(target, key, receiver);
        },
      },
    );
    expect(startsAsModelCall(attributes)).toBe(false);
    expect(read).toHaveLength(6);
  });

  it.each([
    [{ 'openinference.span.kind': 'LLM' }, true],
    [{ 'openinference.span.kind': 'EMBEDDING', 'gen_ai.operation.name': 'chat' }, false],
    [{ 'gen_ai.operation.name': 'chat' }, true],
    [{ 'gen_ai.operation.name': 'embeddings' }, false],
    [{ 'llm.request.type': 'chat' }, true],
    [{ 'llm.request.type': 'rerank' }, false],
    [{ 'langsmith.span.kind': 'llm' }, true],
    [{ 'langfuse.observation.type': 'generation' }, true],
    [{ 'langfuse.observation.type': 'span' }, false],
    [{ 'ai.operationId': 'ai.streamText.doStream' }, true],
    [{ 'ai.operationId': 'ai.streamText' }, false],
  ])('%o → %s', (attributes, expected) => {
    expect(startsAsModelCall(attributes)).toBe(expected);
  });
});
