import { defaultRespond, type FakeLlm, startFakeLlm } from '@aqm/fake-llm';
import OpenAI from 'openai';
import type { FunctionTool, ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, words } from './helpers.js';

const MODEL = 'gpt-4.1-mini';
const lookupTool: FunctionTool = {
  type: 'function',
  name: 'lookup_order',
  description: 'Finds an order',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  strict: false,
};

describe('Responses API through the real openai client', () => {
  let llm: FakeLlm;
  let client: OpenAI;
  beforeAll(async () => {
    llm = await startFakeLlm();
    client = new OpenAI({ apiKey: 'test', baseURL: llm.url, maxRetries: 0 });
  });
  afterAll(() => llm.close());

  const instructions = 'You are terse.';
  const input = 'How do solar panels generate electricity?';
  const expected = defaultRespond(
    chatRequest([
      { role: 'system', content: instructions },
      { role: 'user', content: input },
    ]),
  );
  const promptTokens = words(instructions) + words(input);

  it('answers without streaming: output_text, status, usage', async () => {
    const response = await client.responses.create({ model: MODEL, instructions, input });
    expect(response.id).toMatch(/^resp_/);
    expect(response.model).toBe(MODEL);
    expect(response.status).toBe('completed');
    expect(response.instructions).toBe(instructions);
    expect(response.output_text).toBe(expected);
    expect(response.output[0]).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(response.usage).toMatchObject({
      input_tokens: promptTokens,
      output_tokens: words(expected),
      total_tokens: promptTokens + words(expected),
    });
  });

  it('streams created, text deltas and completed events in sequence', async () => {
    const stream = await client.responses.create({ model: MODEL, instructions, input, stream: true });
    const types: string[] = [];
    const sequence: number[] = [];
    let text = '';
    let completedText: string | undefined;
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') {
        completedText = event.response.output_text ?? messageText(event.response.output);
      }
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types.filter((type) => type === 'response.output_text.delta')).toHaveLength(words(expected));
    expect(sequence).toEqual(types.map((_, i) => i));
    expect(text).toBe(expected);
    expect(completedText).toBe(expected);
  });

  it("works with the client's stream helper (finalResponse)", async () => {
    const stream = client.responses.stream({ model: MODEL, instructions, input });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(expected);
  });

  it('calls a function tool, then answers from its output', async () => {
    const question = 'Where is my order A-42?';
    const first = await client.responses.create({ model: MODEL, input: question, tools: [lookupTool] });
    const call = first.output[0];
    if (call?.type !== 'function_call') throw new Error(`expected a function_call, got ${call?.type}`);
    expect(call.name).toBe('lookup_order');
    expect(JSON.parse(call.arguments)).toEqual({ order_id: question });
    expect(first.output_text).toBe('');

    const followUp: ResponseInputItem[] = [
      { role: 'user', content: question },
      call,
      { type: 'function_call_output', call_id: call.call_id, output: 'Shipped on Monday' },
    ];
    const second = await client.responses.create({ model: MODEL, input: followUp, tools: [lookupTool] });
    expect(second.output_text).toBe('Based on lookup_order: Shipped on Monday');
  });

  it('streams a function call as argument deltas', async () => {
    const stream = client.responses.stream({ model: MODEL, input: 'order B-7 please', tools: [lookupTool] });
    let deltas = '';
    stream.on('response.function_call_arguments.delta', (event) => {
      deltas += event.delta;
    });
    const final = await stream.finalResponse();
    const call = final.output[0];
    if (call?.type !== 'function_call') throw new Error('expected a function_call');
    expect(deltas).toBe(call.arguments);
    expect(JSON.parse(call.arguments)).toEqual({ order_id: 'order B-7 please' });
  });

  it('marks a response cut by max_output_tokens as incomplete', async () => {
    const response = await client.responses.create({
      model: MODEL,
      instructions,
      input,
      max_output_tokens: 16,
    });
    const cut = expected.split(' ').slice(0, 16).join(' ');
    expect(words(expected)).toBeGreaterThan(16);
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output_text).toBe(cut);
  });
});

function messageText(output: OpenAI.Responses.ResponseOutputItem[]): string {
  return output
    .flatMap((item) => (item.type === 'message' ? item.content : []))
    .map((part) => (part.type === 'output_text' ? part.text : ''))
    .join('');
}
