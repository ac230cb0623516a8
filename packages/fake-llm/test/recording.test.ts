import Anthropic from '@anthropic-ai/sdk';
import { type FakeChatRequest, type FakeLlm, MAX_RECORDED_REQUESTS, startFakeLlm } from '@aqm/fake-llm';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, words } from './helpers.js';

const ANTHROPIC_MODEL = 'claude-haiku-4-5';

describe('custom respond and recorded requests', () => {
  const seen: FakeChatRequest[] = [];
  let llm: FakeLlm;
  let openai: OpenAI;
  let anthropic: Anthropic;
  beforeAll(async () => {
    llm = await startFakeLlm({
      respond: (request) => {
        seen.push(request);
        return `custom answer for ${request.api} with ${request.messages.length} messages`;
      },
    });
    openai = new OpenAI({ apiKey: 'test', baseURL: llm.url, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: 'test', baseURL: llm.anthropicUrl, maxRetries: 0 });
  });
  afterAll(() => llm.close());
  afterEach(() => {
    seen.length = 0;
    llm.requests.length = 0;
  });

  it('uses respond for the text of every API and records each request, parsed, in order', async () => {
    const chat = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'developer', content: 'Be nice.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'part one' },
            { type: 'text', text: 'part two' },
          ],
        },
      ],
    });
    const responses = await openai.responses.create({ model: 'gpt-4.1-mini', input: 'hi', stream: false });
    const message = await anthropic.messages.create({
      model: ANTHROPIC_MODEL,
      max_tokens: 100,
      system: 'Sys',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(chat.choices[0]?.message.content).toBe('custom answer for openai-chat with 2 messages');
    expect(responses.output_text).toBe('custom answer for openai-responses with 1 messages');
    expect(message.content[0]).toMatchObject({ text: 'custom answer for anthropic with 2 messages' });

    expect(llm.requests).toEqual([
      {
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'Be nice.' },
          { role: 'user', content: 'part one\npart two' },
        ],
        tools: [],
        stream: false,
        api: 'openai-chat',
      },
      {
        model: 'gpt-4.1-mini',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        stream: false,
        api: 'openai-responses',
      },
      {
        model: ANTHROPIC_MODEL,
        messages: [
          { role: 'system', content: 'Sys' },
          { role: 'user', content: 'hello' },
        ],
        tools: [],
        stream: false,
        api: 'anthropic',
      },
    ]);
    expect(seen).toEqual(llm.requests);
  });

  it('decides tool calls itself, and gives respond the tool result with the tool name', async () => {
    const tools: OpenAI.Chat.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'fetch_page', description: 'Fetches a page', parameters: {} } },
    ];
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'fetch it' }];
    const first = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools, stream: false });
    expect(seen).toEqual([]);
    const assistant = first.choices[0]?.message;
    const callId = assistant?.tool_calls?.[0]?.id;
    if (assistant === undefined || callId === undefined) throw new Error('expected a tool call');
    messages.push(assistant, { role: 'tool', tool_call_id: callId, content: '<html>' });
    await openai.chat.completions
      .create({ model: 'gpt-4o', messages, tools, stream: true })
      .then(async (s) => {
        for await (const _ of s);
      });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'fetch it' },
        { role: 'assistant', content: '' },
        { role: 'tool', content: '<html>', name: 'fetch_page' },
      ],
      tools: [{ name: 'fetch_page', description: 'Fetches a page' }],
      stream: true,
      api: 'openai-chat',
    });
    expect(llm.requests).toHaveLength(2);
  });

  it(`keeps only the last ${MAX_RECORDED_REQUESTS} requests`, async () => {
    const total = MAX_RECORDED_REQUESTS + 5;
    for (let i = 0; i < total; i++) {
      const { status } = await rawRequest(`${llm.url}/chat/completions`, {
        body: JSON.stringify({ model: `model-${i}`, messages: [{ role: 'user', content: 'x' }] }),
      });
      expect(status).toBe(200);
    }
    expect(llm.requests).toHaveLength(MAX_RECORDED_REQUESTS);
    expect(llm.requests[0]?.model).toBe(`model-${total - MAX_RECORDED_REQUESTS}`);
    expect(llm.requests.at(-1)?.model).toBe(`model-${total - 1}`);
  });
});

describe('usage is the same through every API', () => {
  let llm: FakeLlm;
  beforeAll(async () => {
    llm = await startFakeLlm();
  });
  afterAll(() => llm.close());

  it('counts prompt and completion words identically for Chat, Responses and Messages', async () => {
    const system = 'You are a careful financial assistant.';
    const user = 'How are quarterly dividends taxed in Germany?';
    const openai = new OpenAI({ apiKey: 'test', baseURL: llm.url, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: llm.anthropicUrl, maxRetries: 0 });
    const chat = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    });
    const response = await openai.responses.create({ model: 'gpt-4o', instructions: system, input: user });
    const message = await anthropic.messages.create({
      model: ANTHROPIC_MODEL,
      max_tokens: 500,
      system,
      messages: [{ role: 'user', content: user }],
    });
    const answer = chat.choices[0]?.message.content ?? '';
    expect(response.output_text).toBe(answer);
    expect(message.content[0]).toMatchObject({ text: answer });
    const prompt = words(system) + words(user);
    expect(chat.usage).toMatchObject({ prompt_tokens: prompt, completion_tokens: words(answer) });
    expect(response.usage).toMatchObject({ input_tokens: prompt, output_tokens: words(answer) });
    expect(message.usage).toMatchObject({ input_tokens: prompt, output_tokens: words(answer) });
  });
});
