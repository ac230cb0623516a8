import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import { MAX_METADATA_ENTRIES } from '../src/mapping/record-metadata.js';
import { chatSpan, map, OPTIONS } from './mapping-helpers/chat-span.js';
import { buildTrace, json, openAiLog } from './mapping-helpers/spans.js';

describe('buildTraceRecord: the top-level interaction', () => {
  it('takes prompt and response from the highest LLM-ish span, below a non-LLM HTTP root', () => {
    const built = buildTrace({
      name: 'POST /ask',
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': 'POST' },
      children: [
        {
          name: 'RunnableSequence',
          attributes: {
            'openinference.span.kind': 'CHAIN',
            'input.value': 'What is the refund policy?',
            'input.mime_type': 'text/plain',
            'output.value': json({ output: 'Refunds within 30 days.' }),
            'output.mime_type': 'application/json',
          },
          children: [
            // (How a chain's prompt is chosen when the model's message differs is in mapping-prompt-rule.test.ts.)
            chatSpan('What is the refund policy?', 'Refunds are accepted within 30 days.'),
          ],
        },
      ],
    });
    const record = map(built.spans);
    expect(record.prompt).toBe('What is the refund policy?');
    expect(record.response).toBe('Refunds within 30 days.');
    expect(record.spans?.map((span) => span.name)).toEqual(['POST /ask', 'RunnableSequence', 'chat gpt-4o']);
  });

  it('counts the tokens of a model call seen by two instrumentations once, at the outer span', () => {
    // @aqm/langchain's chat run around the `openai` package's own span (@opentelemetry/instrumentation-openai),
    // which the handler makes a child of the run: one call, two spans, both with its token counts.
    const usage = { 'gen_ai.usage.input_tokens': 24, 'gen_ai.usage.output_tokens': 9 };
    const built = buildTrace({
      name: 'invoke_workflow RunnableSequence',
      scope: '@aqm/langchain',
      attributes: { 'gen_ai.operation.name': 'invoke_workflow' },
      children: [
        {
          name: 'chat',
          scope: '@aqm/langchain',
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': 'openai',
            'gen_ai.request.model': 'gpt-4o-mini',
            'gen_ai.input.messages': json([
              { role: 'user', parts: [{ type: 'text', content: 'Say hello' }] },
            ]),
            'gen_ai.output.messages': json([
              { role: 'assistant', parts: [{ type: 'text', content: 'Hello!' }], finish_reason: 'stop' },
            ]),
            ...usage,
          },
          children: [
            {
              name: 'chat gpt-4o-mini',
              kind: SpanKind.CLIENT,
              scope: '@opentelemetry/instrumentation-openai',
              attributes: {
                'gen_ai.operation.name': 'chat',
                'gen_ai.system': 'openai',
                'gen_ai.request.model': 'gpt-4o-mini',
                'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
                ...usage,
              },
              logs: [
                openAiLog('gen_ai.user.message', { content: 'Say hello' }),
                openAiLog('gen_ai.choice', {
                  finish_reason: 'stop',
                  index: 0,
                  message: { content: 'Hello!' },
                }),
              ],
            },
          ],
        },
      ],
    });
    const record = buildTraceRecord(built.spans, built.logs, OPTIONS);
    expect(record?.usage).toEqual({ inputTokens: 24, outputTokens: 9, totalTokens: 33 });
    expect(record?.prompt).toBe('Say hello');
    expect(record?.response).toBe('Hello!');
    expect(record?.spans).toHaveLength(3);
  });

  it('falls back to the earliest model call for the prompt and the latest-ending one for the response', () => {
    const built = buildTrace({
      name: 'agent.workflow',
      attributes: { 'traceloop.span.kind': 'workflow', 'traceloop.entity.name': 'agent' },
      children: [chatSpan('First question', 'Intermediate answer'), chatSpan('Follow-up', 'Final answer')],
    });
    const record = map(built.spans);
    expect(record.prompt).toBe('First question');
    expect(record.response).toBe('Final answer');
  });

  it('uses the whole input text when the input has no roles, and excludes system instructions', () => {
    const noRoles = buildTrace({
      name: 'llm',
      attributes: {
        'openinference.span.kind': 'LLM',
        'input.value': 'plain question',
        'output.value': 'plain answer',
      },
    });
    expect(map(noRoles.spans)).toMatchObject({ prompt: 'plain question', response: 'plain answer' });
    const systemOnly = buildTrace(
      chatSpan('ignored', 'ok', {
        'gen_ai.input.messages': json([
          { role: 'system', parts: [{ type: 'text', content: 'secret system prompt' }] },
          { role: 'user', parts: [{ type: 'text', content: 'the user asks' }] },
          { role: 'system', parts: [{ type: 'text', content: 'late system note' }] },
        ]),
      }),
    );
    expect(map(systemOnly.spans).prompt).toBe('the user asks');
  });

  it('treats a span under a remote parent as the local root and keeps the remote parent id', () => {
    const built = buildTrace(chatSpan('q', 'a'), { remoteParent: true });
    const record = map(built.spans);
    expect(record.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(record.spans?.[0]?.parentSpanId).toBe('b7ad6b7169203331');
    expect(record.prompt).toBe('q');
  });
});

describe('buildTraceRecord: which traces are records', () => {
  it('returns undefined for a trace with no LLM span, and for no spans', () => {
    const built = buildTrace({
      name: 'GET /health',
      kind: SpanKind.SERVER,
      children: [{ name: 'SELECT users', kind: SpanKind.CLIENT, attributes: { 'db.system': 'postgresql' } }],
    });
    expect(buildTraceRecord(built.spans, [], OPTIONS)).toBeUndefined();
    expect(buildTraceRecord([], [], OPTIONS)).toBeUndefined();
  });

  it('returns undefined for an agent span alone, but a record for a remote agent (invoke_agent CLIENT)', () => {
    const attributes = {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'remote',
      'gen_ai.input.messages': json([{ role: 'user', parts: [{ type: 'text', content: 'hi agent' }] }]),
    };
    const local = buildTrace({ name: 'invoke_agent remote', kind: SpanKind.INTERNAL, attributes });
    expect(buildTraceRecord(local.spans, [], OPTIONS)).toBeUndefined();
    const remote = buildTrace({ name: 'invoke_agent remote', kind: SpanKind.CLIENT, attributes });
    expect(map(remote.spans).prompt).toBe('hi agent');
  });

  it('keeps a trace with no model call when its top-level span carries both prompt and response', () => {
    // What @aqm/express records for a chat endpoint whose model client is not instrumented.
    const built = buildTrace({
      name: 'POST /chat',
      kind: SpanKind.SERVER,
      attributes: {
        'gen_ai.operation.name': 'invoke_workflow',
        'gen_ai.input.messages': json([
          { role: 'user', parts: [{ type: 'text', content: 'Where is my order?' }] },
        ]),
        'gen_ai.output.messages': json([
          { role: 'assistant', parts: [{ type: 'text', content: 'It ships today.' }], finish_reason: 'stop' },
        ]),
        'deployment.environment.name': 'staging',
        'service.version': '2.3.1',
      },
    });
    const record = map(built.spans);
    expect(record.prompt).toBe('Where is my order?');
    expect(record.response).toBe('It ships today.');
    expect(record.environment).toBe('staging');
    expect(record.appVersion).toBe('2.3.1');
    // A prompt without an answer is still not an interaction worth scoring.
    const half = buildTrace({
      name: 'POST /chat',
      kind: SpanKind.SERVER,
      attributes: {
        'gen_ai.operation.name': 'invoke_workflow',
        'gen_ai.input.messages': json([{ role: 'user', parts: [{ type: 'text', content: 'Where?' }] }]),
      },
    });
    expect(buildTraceRecord(half.spans, [], OPTIONS)).toBeUndefined();
  });

  it('keeps the trace when one span cannot be read', () => {
    const built = buildTrace(chatSpan('q', 'a'));
    const broken = {
      ...built.spans[0],
      spanContext: () => {
        throw new Error('broken span');
      },
    } as unknown as ReadableSpan;
    const record = map([broken, ...built.spans]);
    expect(record.prompt).toBe('q');
    expect(record.spans).toHaveLength(1);
  });

  it('ignores a log record whose span is not in the trace', () => {
    const built = buildTrace(chatSpan('q', 'a'));
    const record = buildTraceRecord(
      built.spans,
      [
        {
          traceId: built.traceId,
          spanId: 'ffffffffffffffff',
          eventName: 'gen_ai.user.message',
          body: { content: 'x' },
          attributes: {},
        },
      ],
      OPTIONS,
    );
    expect(record?.prompt).toBe('q');
  });
});

describe('buildTraceRecord: ids, environment and metadata', () => {
  it('takes session and user ids from the top-level span before any other span', () => {
    const built = buildTrace({
      name: 'invoke_agent helper',
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': 'conv-top' },
      children: [chatSpan('q', 'a', { 'session.id': 'child-session', 'enduser.id': 'end-user-1' })],
    });
    expect(map(built.spans)).toMatchObject({ sessionId: 'conv-top', userId: 'end-user-1' });
  });

  it('takes environment and app version from options, else from the resource', () => {
    const resource = {
      'service.name': 'checkout',
      'service.version': '2.3.4',
      'deployment.environment.name': 'staging',
    };
    const built = buildTrace(chatSpan('q', 'a'), { resource });
    expect(map(built.spans)).toMatchObject({
      environment: 'staging',
      appVersion: '2.3.4',
      metadata: { 'service.name': 'checkout', 'aqm.convention': 'semconv' },
    });
    expect(map(built.spans, { ...OPTIONS, environment: 'production', appVersion: '9.9.9' })).toMatchObject({
      environment: 'production',
      appVersion: '9.9.9',
    });
    const legacy = buildTrace(chatSpan('q', 'a'), { resource: { 'deployment.environment': 'qa' } });
    expect(map(legacy.spans).environment).toBe('qa');
  });

  it('still builds the record when reading a deployment attribute throws', () => {
    // A resource of one's own (not the SDK's, which copies attributes) with hostile getters.
    const hostile: Record<string, unknown> = { 'service.name': 'checkout', 'deployment.environment': 'qa' };
    for (const key of ['deployment.environment.name', 'service.version']) {
      Object.defineProperty(hostile, key, {
        enumerable: true,
        get() {
          throw new Error(`hostile ${key}`);
        },
      });
    }
    const built = buildTrace(chatSpan('q', 'a'));
    for (const span of built.spans)
      Object.defineProperty(span.resource, 'attributes', { get: () => hostile });
    const record = map(built.spans);
    expect(record).toMatchObject({ prompt: 'q', response: 'a', environment: 'qa' });
    expect(record.appVersion).toBeUndefined();
  });

  it('bounds metadata entries and leaves session/user keys out of it', () => {
    const attributes: Record<string, string> = {
      'ai.telemetry.metadata.sessionId': 's',
      'ai.telemetry.metadata.userId': 'u',
    };
    for (let i = 0; i < 100; i += 1) attributes[`ai.telemetry.metadata.k${i}`] = `v${i}`;
    const built = buildTrace({
      name: 'ai.generateText.doGenerate',
      attributes: {
        'ai.operationId': 'ai.generateText.doGenerate',
        'ai.prompt.messages': json([]),
        ...attributes,
      },
    });
    const record = map(built.spans);
    expect(Object.keys(record.metadata ?? {})).toHaveLength(MAX_METADATA_ENTRIES);
    expect(record.metadata?.['ai.telemetry.metadata.k0']).toBe('v0');
    expect(record.metadata?.['ai.telemetry.metadata.sessionId']).toBeUndefined();
    expect(record).toMatchObject({ sessionId: 's', userId: 'u' });
  });
  it('repairs metadata keys like values (a lone surrogate becomes U+FFFD)', () => {
    const built = buildTrace({
      name: 'ai.generateText.doGenerate',
      attributes: {
        'ai.operationId': 'ai.generateText.doGenerate',
        'ai.prompt.messages': json([]),
        'ai.telemetry.metadata.bad\uD800key': 'v',
      },
    });
    const keys = Object.keys(map(built.spans).metadata ?? {});
    expect(keys).toContain('ai.telemetry.metadata.bad\uFFFDkey');
    expect(keys.every((key) => key.isWellFormed())).toBe(true);
  });
});

describe('buildTraceRecord: spans on the wire', () => {
  it('converts every span: ids, parent, kind, ISO times, status, attributes and events', () => {
    const built = buildTrace({
      name: 'RunnableSequence',
      attributes: {
        'openinference.span.kind': 'CHAIN',
        'input.value': 'q',
        'tag.count': 3,
        'tag.list': ['a', 'b'],
      },
      status: { code: SpanStatusCode.OK },
      children: [
        { ...chatSpan('q', 'a'), events: [{ name: 'gen_ai.first_token', attributes: { note: 'fast' } }] },
      ],
    });
    const record = map(built.spans);
    const root = built.byName('RunnableSequence');
    const child = built.byName('chat gpt-4o');
    const [wireRoot, wireChild] = record.spans!;
    expect(wireRoot).toMatchObject({
      spanId: root.spanContext().spanId,
      name: 'RunnableSequence',
      kind: 'internal',
      status: { code: 'ok' },
      attributes: { 'openinference.span.kind': 'CHAIN', 'tag.count': 3, 'tag.list': ['a', 'b'] },
    });
    expect(wireRoot?.parentSpanId).toBeUndefined();
    expect(wireChild).toMatchObject({
      spanId: child.spanContext().spanId,
      parentSpanId: root.spanContext().spanId,
      kind: 'client',
      status: { code: 'unset' },
      events: [{ name: 'gen_ai.first_token', attributes: { note: 'fast' } }],
    });
    const startMs = root.startTime[0] * 1000 + root.startTime[1] / 1e6;
    expect(wireRoot?.startTime).toBe(new Date(startMs).toISOString());
    expect(record.startTime).toBe(wireRoot?.startTime);
    expect(record.endTime).toBe(wireRoot?.endTime);
    expect(record.endTime > wireChild!.endTime).toBe(true);
  });
});

describe('buildTraceRecord: retrieved context', () => {
  it('collects semconv retrieval output, LangSmith retriever documents and aqm.retrieval.documents, without repeats', () => {
    const built = buildTrace({
      name: 'invoke_agent rag',
      attributes: { 'gen_ai.operation.name': 'invoke_agent' },
      children: [
        {
          name: 'retrieval kb',
          attributes: {
            'gen_ai.operation.name': 'retrieval',
            'gen_ai.output.messages': json([
              {
                role: 'assistant',
                parts: [
                  { type: 'text', content: 'Doc 1' },
                  { type: 'text', content: 'Doc 2' },
                ],
              },
            ]),
          },
        },
        {
          name: 'VectorStoreRetriever',
          attributes: {
            'langsmith.span.kind': 'retriever',
            'gen_ai.completion': json({
              documents: [{ pageContent: 'Doc 2', metadata: {} }, { pageContent: 'Doc 3' }],
            }),
          },
        },
        { name: 'aqm retriever', attributes: { 'aqm.retrieval.documents': json(['Doc 4', 'Doc 1']) } },
        chatSpan('q', 'a'),
      ],
    });
    expect(map(built.spans).context).toEqual(['Doc 1', 'Doc 2', 'Doc 3', 'Doc 4']);
  });

  it('leaves context out when no span retrieved anything', () => {
    expect(map(buildTrace(chatSpan('q', 'a')).spans).context).toBeUndefined();
  });
});
