import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// LangChain and the OpenTelemetry SDK are development dependencies of @aqm/langchain, taken from there.
import {
  AIMessage,
  RunnableLambda,
  RunnableSequence,
  ScriptedChatModel,
  tool,
} from '../../../packages/langchain/test/helpers/http-test-deps.js';
import { startTracedLangchain, type TracedLangchain } from '../langchain/helpers/traced-langchain.js';

const DEPTH = 5000;

/** An object nested `depth` levels deep: `{ level: { level: ... } }`. */
function deeplyNested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { bottom: true };
  for (let i = 0; i < depth; i++) value = { level: value };
  return value;
}

/** An object that contains itself, twice over, with a BigInt and a getter that throws. */
function circular(): Record<string, unknown> {
  const value: Record<string, unknown> = { name: 'loop', big: 10n ** 30n };
  value.self = value;
  value.list = [value, { back: value }];
  Object.defineProperty(value, 'broken', {
    enumerable: true,
    get: () => {
      throw new Error('getter');
    },
  });
  return value;
}

// Deeply nested and circular values in LangChain chain inputs, outputs and tool results reach
// spans through AqmCallbackHandler's serialisation: nothing throws into the chain, and the trace
// arrives with the values bounded and marked.
describe('AqmCallbackHandler with circular and deeply nested values → AqmSpanProcessor → service', () => {
  let lc: TracedLangchain;
  beforeAll(async () => {
    lc = await startTracedLangchain('langchain-values');
  });
  afterAll(async () => {
    await lc?.close();
  });

  it('a chain whose input, output and tool result are circular and 5000 levels deep', async () => {
    const model = new ScriptedChatModel({
      model: 'messy-model',
      replies: [
        new AIMessage({
          content: 'Looked it up.',
          usage_metadata: { input_tokens: 4, output_tokens: 3, total_tokens: 7 },
        }),
      ],
    });
    const lookup = tool(async () => ({ found: circular(), deep: deeplyNested(DEPTH) }), {
      name: 'lookup',
      description: 'Returns a messy object',
      schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    });
    const chain = RunnableSequence.from([
      RunnableLambda.from(async (input: { question: string; extra: unknown; deep: unknown }, config) => {
        await lookup.invoke({ q: input.question }, config);
        return input.question;
      }),
      model,
      RunnableLambda.from(() => ({ answer: circular(), deep: deeplyNested(DEPTH) })),
    ]).withConfig({ runName: 'messy_chain' });

    const output = await chain.invoke(
      { question: 'What is in the loop?', extra: circular(), deep: deeplyNested(DEPTH) },
      { callbacks: [lc.handler] },
    );
    expect(output.answer.name).toBe('loop');
    await lc.processor.forceFlush();

    expect(lc.processor.stats()).toMatchObject({ exportedTraces: 1, droppedTraces: { total: 0 } });
    const traceId = lc.traceIdOf('invoke_workflow messy_chain');
    const stored = await lc.client.traces.get(lc.applicationId, traceId);
    expect(stored.model).toBe('messy-model');
    expect(stored.spans.map((span) => span.name)).toEqual(
      expect.arrayContaining(['invoke_workflow messy_chain', 'execute_tool lookup', 'chat messy-model']),
    );
    // The values arrive as bounded JSON text with the handler's markers.
    const text = JSON.stringify(stored.spans.map((span) => span.attributes));
    expect(text).toContain('[Circular]');
    expect(text).toContain('[Object]');
    expect(text).toContain('[getter threw]');
    expect(text).toContain(String(10n ** 30n));
    expect(text.length).toBeLessThan(1_000_000);
  });
});
