import { defaultRespond, type FakeLlm, startFakeLlm } from '@aqm/fake-llm';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, words } from './helpers.js';

const MODEL = 'gpt-4o-mini';
const weatherTool: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather of a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city', 'days'],
    },
  },
};
const searchTool: ChatCompletionTool = {
  type: 'function',
  function: { name: 'search_docs', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
};

describe('Chat Completions through the real openai client', () => {
  let llm: FakeLlm;
  let client: OpenAI;
  beforeAll(async () => {
    llm = await startFakeLlm();
    client = new OpenAI({ apiKey: 'test', baseURL: llm.url, maxRetries: 0 });
  });
  afterAll(() => llm.close());

  const conversation = [
    { role: 'system' as const, content: 'You answer geography questions.' },
    { role: 'user' as const, content: 'What is the capital of France?' },
  ];
  const expected = defaultRespond(chatRequest(conversation));
  const promptTokens = conversation.reduce((sum, m) => sum + words(m.content), 0);

  it('answers without streaming: default text, echoed model, realistic id, word-count usage', async () => {
    const completion = await client.chat.completions.create({ model: MODEL, messages: conversation });
    expect(completion.id).toMatch(/^chatcmpl-[A-Za-z0-9]{20,}$/);
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe(MODEL);
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.choices[0]?.message.content).toBe(expected);
    expect(expected).toMatch(/capital/);
    expect(expected).toMatch(/France/);
    expect(completion.usage).toMatchObject({
      prompt_tokens: promptTokens,
      completion_tokens: words(expected),
      total_tokens: promptTokens + words(expected),
    });
  });

  it('streams the same text word by word, then a usage chunk when include_usage is set', async () => {
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: conversation,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let contentChunks = 0;
    const finishReasons: string[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    let usageChunkChoices = -1;
    for await (const chunk of stream) {
      expect(chunk.model).toBe(MODEL);
      const content = chunk.choices[0]?.delta.content;
      if (content) {
        text += content;
        contentChunks++;
      }
      const finish = chunk.choices[0]?.finish_reason;
      if (finish) finishReasons.push(finish);
      if (chunk.usage) {
        usage = chunk.usage;
        usageChunkChoices = chunk.choices.length;
      }
    }
    expect(text).toBe(expected);
    expect(contentChunks).toBe(words(expected));
    expect(finishReasons).toEqual(['stop']);
    expect(usageChunkChoices).toBe(0);
    expect(usage).toMatchObject({ prompt_tokens: promptTokens, completion_tokens: words(expected) });
  });

  it('sends no usage chunk without include_usage', async () => {
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: conversation,
      stream: true,
    });
    const usages: unknown[] = [];
    for await (const chunk of stream) if (chunk.usage) usages.push(chunk.usage);
    expect(usages).toEqual([]);
  });

  it("works with the client's stream helper (finalContent)", async () => {
    const runner = client.chat.completions.stream({ model: MODEL, messages: conversation });
    expect(await runner.finalContent()).toBe(expected);
  });

  it('calls the tool the user message names, filling its required string properties', async () => {
    const question = 'What is the weather in Paris tomorrow?';
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: question }],
      tools: [searchTool, weatherTool],
    });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const call = choice?.message.tool_calls?.[0];
    expect(call?.type).toBe('function');
    expect(call?.id).toMatch(/^call_/);
    if (call?.type !== 'function') throw new Error('expected a function tool call');
    expect(call.function.name).toBe('get_weather');
    // `days` is required but not a string: only `city` is filled.
    expect(JSON.parse(call.function.arguments)).toEqual({ city: question });
  });

  it('falls back to the first tool, with { query } when its schema requires no string', async () => {
    const message = 'Tell me something nice';
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: message }],
      tools: [searchTool, weatherTool],
    });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function tool call');
    expect(call.function.name).toBe('search_docs');
    expect(JSON.parse(call.function.arguments)).toEqual({ query: message });
  });

  it('answers "Based on <tool>: <result>" once the tool result follows', async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Rome?' }];
    const first = await client.chat.completions.create({ model: MODEL, messages, tools: [weatherTool] });
    const assistant = first.choices[0]?.message;
    const call = assistant?.tool_calls?.[0];
    if (assistant === undefined || call === undefined) throw new Error('expected a tool call');
    messages.push(assistant, { role: 'tool', tool_call_id: call.id, content: 'Sunny, 24 degrees' });
    const second = await client.chat.completions.create({ model: MODEL, messages, tools: [weatherTool] });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toBe('Based on get_weather: Sunny, 24 degrees');
    expect(second.choices[0]?.message.tool_calls).toBeUndefined();
  });

  it('streams tool calls as deltas the stream helper assembles', async () => {
    const question = 'Check the weather for Oslo please';
    const raw = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: question }],
      tools: [weatherTool],
      stream: true,
    });
    let argumentDeltas = 0;
    for await (const chunk of raw)
      if (chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments) argumentDeltas++;
    expect(argumentDeltas).toBeGreaterThan(1);

    const runner = client.chat.completions.stream({
      model: MODEL,
      messages: [{ role: 'user', content: question }],
      tools: [weatherTool],
    });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    const call = final.choices[0]?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function tool call');
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: question });
  });

  it("runs the client's whole tool loop (runTools) to a final answer", async () => {
    const calls: unknown[] = [];
    const runner = client.chat.completions.runTools({
      model: MODEL,
      messages: [{ role: 'user', content: 'What is the weather in Lima?' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather of a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            parse: (text: string): unknown => JSON.parse(text),
            function: (args: unknown) => {
              calls.push(args);
              return 'Foggy';
            },
          },
        },
      ],
    });
    expect(await runner.finalContent()).toBe('Based on get_weather: Foggy');
    expect(calls).toEqual([{ city: 'What is the weather in Lima?' }]);
  });

  it("answers in text when tool_choice is 'none'", async () => {
    const messages = [{ role: 'user' as const, content: 'Hello there' }];
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages,
      tools: [weatherTool],
      tool_choice: 'none',
    });
    expect(completion.choices[0]?.message.content).toBe(
      defaultRespond(chatRequest(messages, { tools: [{ name: 'get_weather' }] })),
    );
  });

  it('cuts the answer to max_tokens words with finish_reason "length"', async () => {
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: conversation,
      max_tokens: 3,
    });
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.choices[0]?.message.content).toBe(expected.split(' ').slice(0, 3).join(' '));
    expect(completion.usage?.completion_tokens).toBe(3);
  });
});
