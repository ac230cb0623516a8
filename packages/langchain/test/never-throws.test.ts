import { AqmCallbackHandler } from '@aqm/langchain';
import { RunnableLambda } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { type DiagLogger, DiagLogLevel, diag, type Tracer } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonAttribute, setupTracing } from './helpers/tracing.js';

function captureWarnings(): string[] {
  const warnings: string[] = [];
  const logger: DiagLogger = {
    error: () => {},
    warn: (message, ...args) => warnings.push([message, ...args].join(' ')),
    info: () => {},
    debug: () => {},
    verbose: () => {},
  };
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  return warnings;
}

afterEach(() => diag.disable());

describe('the handler never breaks the chain', () => {
  it('a tracer that throws leaves the chain result intact and logs through diag', async () => {
    const warnings = captureWarnings();
    const tracer = {
      startSpan: () => {
        throw new Error('tracer broke');
      },
    } as unknown as Tracer;
    const handler = new AqmCallbackHandler({ tracer });
    const model = new FakeListChatModel({ responses: ['still works'] });
    const chain = RunnableLambda.from(async (q: string) => String((await model.invoke(q)).content));
    await expect(chain.invoke('hi', { callbacks: [handler] })).resolves.toBe('still works');
    expect(warnings.some((w) => w.includes('handleChainStart failed') && w.includes('tracer broke'))).toBe(
      true,
    );
    expect(warnings.some((w) => w.includes('handleChatModelStart failed'))).toBe(true);
    expect(handler.openRunCount).toBe(0);
  });

  it('circular, BigInt, deeply nested and throwing-getter inputs are serialised defensively', async () => {
    const t = setupTracing();
    const state: Record<string, unknown> = { id: 10n, label: 'state' };
    state.self = state;
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 5000; i++) deep = { next: deep };
    state.deep = deep;
    Object.defineProperty(state, 'secretGetter', {
      enumerable: true,
      get() {
        throw new Error('no access');
      },
    });
    const chain = RunnableLambda.from((input: Record<string, unknown>) => ({ echoed: input.label, n: 1n }));
    await expect(chain.invoke(state, { callbacks: [t.handler], runName: 'odd' })).resolves.toEqual({
      echoed: 'state',
      n: 1n,
    });
    const span = t.span('invoke_workflow odd');
    const [message] = jsonAttribute(span, 'gen_ai.input.messages') as [{ parts: [{ content: string }] }];
    const input = JSON.parse(message.parts[0].content) as Record<string, unknown>;
    expect(input.id).toBe('10');
    expect(input.self).toBe('[Circular]');
    expect(input.secretGetter).toBe('[getter threw]');
    expect(JSON.stringify(input.deep)).toContain('[Object]');
    const [output] = jsonAttribute(span, 'gen_ai.output.messages') as [{ parts: [{ content: string }] }];
    expect(JSON.parse(output.parts[0].content)).toEqual({ echoed: 'state', n: '1' });
  });

  it('huge values are cut to maxValueChars with a visible marker', async () => {
    const t = setupTracing({ maxValueChars: 1000 });
    const huge = 'x'.repeat(1_000_000);
    const model = new FakeListChatModel({ responses: [huge] });
    await model.invoke(huge, { callbacks: [t.handler] });
    const span = t.span('chat');
    for (const key of ['gen_ai.input.messages', 'gen_ai.output.messages']) {
      const value = String(span.attributes[key]);
      expect(value.length).toBeLessThan(1200);
      expect(value).toContain('…[truncated 999000 chars]');
    }
  });

  it('a long conversation keeps its newest messages within the list budget', async () => {
    const t = setupTracing({ maxValueChars: 100 });
    const model = new FakeListChatModel({ responses: ['ok'] });
    const history = Array.from({ length: 50 }, (_, i): ['human', string] => [
      'human',
      `message number ${i} ${'.'.repeat(40)}`,
    ]);
    await model.invoke(history, { callbacks: [t.handler] });
    const messages = jsonAttribute(t.span('chat'), 'gen_ai.input.messages') as {
      parts: { content: string }[];
    }[];
    expect(String(t.span('chat').attributes['gen_ai.input.messages']).length).toBeLessThanOrEqual(400);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.length).toBeLessThan(50);
    expect(messages.at(-1)?.parts[0]?.content).toContain('message number 49');
  });

  it('callbacks with missing or malformed arguments do not throw', () => {
    const t = setupTracing();
    const h = t.handler as unknown as Record<string, (...args: unknown[]) => unknown>;
    const calls: [string, unknown[]][] = [
      ['handleChainStart', [null, undefined, 'r1']],
      ['handleChainEnd', [undefined, 'r1']],
      ['handleChatModelStart', [undefined, 'not messages', 'r2']],
      ['handleLLMEnd', [{ generations: [[undefined, null, 5]], llmOutput: [] }, 'r2']],
      ['handleLLMStart', [{}, [{ weird: true }], 'r3']],
      ['handleLLMNewToken', [42, undefined, 'r3']],
      ['handleLLMError', ['a string error', 'r3']],
      ['handleToolStart', [undefined, undefined, 'r4']],
      ['handleToolEnd', [undefined, 'r4']],
      ['handleRetrieverStart', [undefined, 7, 'r5']],
      ['handleRetrieverEnd', [null, 'r5']],
      ['handleChainError', [{ name: 'Weird' }, 'unknown-run']],
      ['handleAgentAction', [null, 'nope']],
      ['handleChainStart', [{}, {}, undefined]],
    ];
    for (const [method, args] of calls) expect(() => h[method]?.(...args), method).not.toThrow();
    expect(t.handler.openRunCount).toBe(0);
    expect(t.span('text_completion').status.message).toBe('a string error');
    expect(jsonAttribute(t.span('retrieval retriever'), 'aqm.retrieval.documents')).toEqual([]);
  });
});
