import Anthropic from '@anthropic-ai/sdk';
import { defaultRespond, type FakeLlm, startFakeLlm } from '@aqm/fake-llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, words } from './helpers.js';

const MODEL = 'claude-haiku-4-5';
const ticketTool: Anthropic.Tool = {
  name: 'create_ticket',
  description: 'Opens a support ticket',
  input_schema: {
    type: 'object',
    properties: { summary: { type: 'string' }, priority: { type: 'number' } },
    required: ['summary', 'priority'],
  },
};
const docsTool: Anthropic.Tool = {
  name: 'search_docs',
  input_schema: { type: 'object', properties: { q: { type: 'string' } } },
};

describe('Messages API through the real @anthropic-ai/sdk client', () => {
  let llm: FakeLlm;
  let client: Anthropic;
  beforeAll(async () => {
    llm = await startFakeLlm();
    client = new Anthropic({ apiKey: 'test', baseURL: llm.anthropicUrl, maxRetries: 0 });
  });
  afterAll(() => llm.close());

  const system = 'You are a support agent.';
  const question = 'Why is my invoice total different this month?';
  const expected = defaultRespond(
    chatRequest(
      [
        { role: 'system', content: system },
        { role: 'user', content: question },
      ],
      { api: 'anthropic' },
    ),
  );
  const inputTokens = words(system) + words(question);

  it('answers without streaming: text block, end_turn, usage', async () => {
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 512,
      system,
      messages: [{ role: 'user', content: question }],
    });
    expect(message.id).toMatch(/^msg_01/);
    expect(message.model).toBe(MODEL);
    expect(message.role).toBe('assistant');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content).toEqual([{ type: 'text', text: expected, citations: null }]);
    expect(message.usage).toMatchObject({ input_tokens: inputTokens, output_tokens: words(expected) });
  });

  it('streams the documented event sequence; the stream helper gives the final text', async () => {
    const raw = await client.messages.create({
      model: MODEL,
      max_tokens: 512,
      system: [{ type: 'text', text: system }],
      messages: [{ role: 'user', content: [{ type: 'text', text: question }] }],
      stream: true,
    });
    const types: string[] = [];
    let text = '';
    for await (const event of raw) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    expect(text).toBe(expected);
    const distinct = types.filter((type, i) => type !== types[i - 1]);
    expect(distinct).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);

    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 512,
      system,
      messages: [{ role: 'user', content: question }],
    });
    expect(await stream.finalText()).toBe(expected);
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ input_tokens: inputTokens, output_tokens: words(expected) });
  });

  it('answers with a tool_use block, then "Based on" once the tool_result follows', async () => {
    const request = 'Please create a ticket: my printer is on fire';
    const first = await client.messages.create({
      model: MODEL,
      max_tokens: 512,
      tools: [docsTool, ticketTool],
      messages: [{ role: 'user', content: request }],
    });
    expect(first.stop_reason).toBe('tool_use');
    const block = first.content[0];
    if (block?.type !== 'tool_use') throw new Error(`expected tool_use, got ${block?.type}`);
    expect(block.id).toMatch(/^toolu_01/);
    expect(block.name).toBe('create_ticket');
    expect(block.input).toEqual({ summary: request });

    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 512,
      tools: [docsTool, ticketTool],
      messages: [
        { role: 'user', content: request },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: block.id, content: 'Ticket T-9 opened' }],
        },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content).toEqual([
      { type: 'text', text: 'Based on create_ticket: Ticket T-9 opened', citations: null },
    ]);
  });

  it('streams tool_use input as JSON deltas the stream helper parses', async () => {
    const request = 'look this up in the docs';
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 512,
      tools: [ticketTool, docsTool],
      messages: [{ role: 'user', content: request }],
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content[0]).toMatchObject({
      type: 'tool_use',
      name: 'search_docs',
      input: { query: request },
    });
  });

  it('cuts the answer at max_tokens with stop_reason "max_tokens"', async () => {
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 4,
      messages: [{ role: 'user', content: question }],
    });
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(4);
  });

  it('counts tokens like the answers do', async () => {
    const counted = await client.messages.countTokens({
      model: MODEL,
      system,
      messages: [{ role: 'user', content: question }],
    });
    expect(counted.input_tokens).toBe(inputTokens);
  });

  it('rejects a request without max_tokens in the Anthropic error shape', async () => {
    const error = await client.messages
      .create({
        model: MODEL,
        messages: [{ role: 'user', content: 'hi' }],
      } as unknown as Anthropic.MessageCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') },
    });
  });
});
