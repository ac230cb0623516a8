import { Document } from '@langchain/core/documents';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnableLambda, RunnableSequence } from '@langchain/core/runnables';
import { FakeListChatModel, FakeRetriever } from '@langchain/core/utils/testing';
import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ERROR, jsonAttribute, parentIdOf, setupTracing } from './helpers/tracing.js';

function qaChain(responses: string[]) {
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', 'You answer questions about {topic}.'],
    ['human', '{question}'],
  ]);
  return RunnableSequence.from([
    prompt,
    new FakeListChatModel({ responses }),
    new StringOutputParser(),
  ]).withConfig({
    runName: 'qa_chain',
  });
}

describe('chain runs', () => {
  it('a chain invoked with callbacks becomes a tree of spans under the active request span', async () => {
    const t = setupTracing();
    const chain = qaChain(['It is 42.']);
    const request = await t.withActiveSpan('POST /ask', async (span) => {
      const answer = await chain.invoke(
        { topic: 'numbers', question: 'What is the answer?' },
        { callbacks: [t.handler], metadata: { session_id: 'sess-1', user_id: 'user-7' } },
      );
      expect(answer).toBe('It is 42.');
      return span;
    });

    const root = t.span('invoke_workflow qa_chain');
    const prompt = t.span('invoke_workflow ChatPromptTemplate');
    const chat = t.span('chat');
    const parser = t.span('invoke_workflow StrOutputParser');
    expect(root.kind).toBe(SpanKind.INTERNAL);
    expect(parentIdOf(root)).toBe(request.spanContext().spanId);
    for (const child of [prompt, chat, parser]) expect(parentIdOf(child)).toBe(root.spanContext().spanId);
    for (const span of t.spans()) expect(span.spanContext().traceId).toBe(request.spanContext().traceId);

    expect(root.attributes['gen_ai.operation.name']).toBe('invoke_workflow');
    expect(jsonAttribute(root, 'gen_ai.input.messages')).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'What is the answer?' }] },
    ]);
    expect(jsonAttribute(root, 'gen_ai.output.messages')).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'It is 42.' }], finish_reason: 'stop' },
    ]);
    expect(jsonAttribute(chat, 'gen_ai.input.messages')).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'You answer questions about numbers.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'What is the answer?' }] },
    ]);
    // The prompt step's output is a prompt value: its last message stands for it.
    expect(jsonAttribute(prompt, 'gen_ai.output.messages')).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'What is the answer?' }], finish_reason: 'stop' },
    ]);
    // Session and user go on the top-level span only.
    expect(root.attributes['session.id']).toBe('sess-1');
    expect(root.attributes['user.id']).toBe('user-7');
    expect(chat.attributes['session.id']).toBeUndefined();
    expect(t.handler.openRunCount).toBe(0);
  });

  it('a single call inside an untraced chain is traced alone, parented to the active span', async () => {
    const t = setupTracing();
    const model = new FakeListChatModel({ responses: ['inner'] });
    const chain = RunnableLambda.from(async (input: string) => {
      const reply = await model.invoke(input, { callbacks: [t.handler] });
      return String(reply.content);
    });
    const request = await t.withActiveSpan('job', async (span) => {
      await chain.invoke('question');
      return span;
    });
    // The untraced lambda left no span: only the request span and the model call.
    expect(t.spans().map((s) => s.name)).toEqual(['chat', 'job']);
    expect(parentIdOf(t.span('chat'))).toBe(request.spanContext().spanId);
  });

  it('inputs with several variables and no usual key are recorded as JSON', async () => {
    const t = setupTracing();
    const chain = RunnableLambda.from((input: { a: number; b: number }) => ({
      sum: input.a + input.b,
      note: 'ok',
    }));
    await chain.invoke({ a: 2, b: 3 }, { callbacks: [t.handler], runName: 'adder' });
    const span = t.span('invoke_workflow adder');
    expect(jsonAttribute(span, 'gen_ai.input.messages')).toEqual([
      { role: 'user', parts: [{ type: 'text', content: '{"a":2,"b":3}' }] },
    ]);
    expect(jsonAttribute(span, 'gen_ai.output.messages')).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'text', content: '{"sum":5,"note":"ok"}' }],
        finish_reason: 'stop',
      },
    ]);
  });

  it('a failing step records the error on its span and on the chain', async () => {
    const t = setupTracing();
    class QuotaError extends Error {
      override name = 'QuotaError';
    }
    const failing = RunnableLambda.from((): string => {
      throw new QuotaError('quota exceeded');
    }).withConfig({ runName: 'lookup' });
    const chain = RunnableSequence.from([RunnableLambda.from((x: string) => x), failing]).withConfig({
      runName: 'pipeline',
    });
    await expect(chain.invoke('x', { callbacks: [t.handler] })).rejects.toThrow('quota exceeded');
    const step = t.span('invoke_workflow lookup');
    const root = t.span('invoke_workflow pipeline');
    for (const span of [step, root]) {
      expect(span.status).toEqual({ code: ERROR, message: 'quota exceeded' });
      expect(span.attributes['error.type']).toBe('QuotaError');
    }
    const exception = step.events.find((e) => e.name === 'exception');
    expect(exception?.attributes?.['exception.message']).toBe('quota exceeded');
    expect(t.handler.openRunCount).toBe(0);
  });

  it('concurrent requests each get their own root parent', async () => {
    const t = setupTracing();
    const chain = qaChain(['a1', 'a2', 'a3', 'a4']);
    const requests = await Promise.all(
      ['r1', 'r2', 'r3', 'r4'].map((name) =>
        t.withActiveSpan(name, async (span) => {
          const answer = await chain.invoke(
            { topic: name, question: `question of ${name}` },
            { callbacks: [t.handler] },
          );
          return { span, answer, name };
        }),
      ),
    );
    const roots = t.spans().filter((s) => s.name === 'invoke_workflow qa_chain');
    expect(roots).toHaveLength(4);
    for (const { span, name } of requests) {
      const root = roots.find((r) => parentIdOf(r) === span.spanContext().spanId);
      expect(root, `root of ${name}`).toBeDefined();
      expect(jsonAttribute(root!, 'gen_ai.input.messages')).toEqual([
        { role: 'user', parts: [{ type: 'text', content: `question of ${name}` }] },
      ]);
    }
  });

  it('a retriever becomes a retrieval span with the query and the documents', async () => {
    const t = setupTracing();
    const retriever = new FakeRetriever({
      output: [
        new Document({ pageContent: 'Oslo is the capital of Norway.' }),
        new Document({ pageContent: 'Norway has fjords.' }),
      ],
    });
    const chain = RunnableSequence.from([
      (input: { question: string }) => input.question,
      retriever,
      (docs: Document[]) => docs.map((d) => d.pageContent).join(' '),
    ]).withConfig({ runName: 'rag' });
    await chain.invoke({ question: 'Capital of Norway?' }, { callbacks: [t.handler] });
    const retrieval = t.span('retrieval FakeRetriever');
    expect(retrieval.kind).toBe(SpanKind.INTERNAL);
    expect(retrieval.attributes['gen_ai.operation.name']).toBe('retrieval');
    expect(retrieval.attributes['gen_ai.retrieval.query.text']).toBe('Capital of Norway?');
    expect(jsonAttribute(retrieval, 'aqm.retrieval.documents')).toEqual([
      'Oslo is the capital of Norway.',
      'Norway has fjords.',
    ]);
    expect(parentIdOf(retrieval)).toBe(t.span('invoke_workflow rag').spanContext().spanId);
  });
});
