import { AIMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { ChatPromptValue } from '@langchain/core/prompt_values';
import { describe, expect, it } from 'vitest';
import { chainInputMessages, chainOutputMessages } from '../src/chain-values.js';
import { messagesJson, toGenAiMessage } from '../src/genai-messages.js';
import { llmOutcome } from '../src/llm-result.js';
import { modelInfo, providerName } from '../src/model-info.js';
import { safeStringify, toJsonSafe, truncateText } from '../src/safe-json.js';

describe('safe serialisation', () => {
  it('cuts text with a marker and never splits a surrogate pair', () => {
    expect(truncateText('abcdef', 3)).toBe('abc…[truncated 3 chars]');
    expect(truncateText('abc', 3)).toBe('abc');
    expect(truncateText('a😀b', 2)).toBe('a…[truncated 3 chars]');
  });

  it('turns awkward values into JSON-ready ones', () => {
    const value = {
      when: new Date('2025-01-02T03:04:05Z'),
      error: new RangeError('bad'),
      map: new Map([['k', 1]]),
      set: new Set([1, 2]),
      bytes: new Uint8Array(4),
      nan: Number.NaN,
      fn: () => 1,
      nothing: undefined,
    };
    expect(toJsonSafe(value, { maxChars: 1000 })).toEqual({
      when: '2025-01-02T03:04:05.000Z',
      error: { name: 'RangeError', message: 'bad' },
      map: { k: 1 },
      set: [1, 2],
      bytes: '[Uint8Array 4 bytes]',
      nan: 'NaN',
    });
  });

  it('keeps shared (non-circular) references and marks cycles', () => {
    const shared = { v: 1 };
    const list: unknown[] = [shared, shared];
    list.push(list);
    expect(toJsonSafe(list, { maxChars: 1000 })).toEqual([{ v: 1 }, { v: 1 }, '[Circular]']);
  });

  it('stays near its character budget however large the value', () => {
    const big = Array.from({ length: 10_000 }, (_, i) => ({ index: i, text: 'y'.repeat(100) }));
    const text = safeStringify(big, 2000);
    expect(text.length).toBeLessThan(2600);
    expect(text).toContain('more items');
  });

  it('a toJSON that throws does not escape', () => {
    expect(
      toJsonSafe(
        {
          toJSON() {
            throw new Error('x');
          },
        },
        { maxChars: 100 },
      ),
    ).toBe('[toJSON threw]');
  });
});

describe('messages', () => {
  it('maps roles: human→user, ai→assistant, system→system, tool→tool, chat roles by name', () => {
    const max = 1000;
    expect(toGenAiMessage(new HumanMessage('q'), max)?.role).toBe('user');
    expect(toGenAiMessage(new AIMessage('a'), max)?.role).toBe('assistant');
    expect(toGenAiMessage(new SystemMessage('s'), max)?.role).toBe('system');
    expect(toGenAiMessage(new ToolMessage({ content: 'r', tool_call_id: 'c' }), max)?.role).toBe('tool');
    expect(toGenAiMessage(new ChatMessage({ content: 'x', role: 'assistant' }), max)?.role).toBe('assistant');
    expect(toGenAiMessage(new ChatMessage({ content: 'x', role: 'critic' }), max)?.role).toBe('user');
  });

  it('reads plain role objects, serialised messages and 0.3-style `_getType()` messages', () => {
    expect(toGenAiMessage({ role: 'assistant', content: 'hi' }, 100)).toEqual({
      role: 'assistant',
      parts: [{ type: 'text', content: 'hi' }],
    });
    const serialised = {
      lc: 1,
      type: 'constructor',
      id: ['langchain_core', 'messages', 'HumanMessage'],
      kwargs: { content: 'q' },
    };
    expect(toGenAiMessage(serialised, 100)).toEqual({
      role: 'user',
      parts: [{ type: 'text', content: 'q' }],
    });
    const legacy = { content: 'old', _getType: () => 'ai', tool_calls: [] };
    expect(toGenAiMessage(legacy, 100)).toEqual({
      role: 'assistant',
      parts: [{ type: 'text', content: 'old' }],
    });
    expect(toGenAiMessage({ some: 'object' }, 100)).toBeUndefined();
  });

  it('content blocks: text joined, media as placeholders; OpenAI-style tool calls parsed', () => {
    const message = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Look ' },
        { type: 'image_url', image_url: { url: 'data:...' } },
        { type: 'text', text: ' here' },
      ],
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }],
    };
    expect(toGenAiMessage(message, 100)).toEqual({
      role: 'assistant',
      parts: [
        { type: 'text', content: 'Look [image] here' },
        { type: 'tool_call', id: 'c1', name: 'f', arguments: { x: 1 } },
      ],
    });
  });

  it('a message list over budget keeps its newest messages, and always the last one', () => {
    const messages = Array.from({ length: 10 }, (_, i) => ({
      role: 'user',
      parts: [{ type: 'text', content: `m${i}` }],
    }));
    const kept = JSON.parse(messagesJson(messages, 150)) as typeof messages;
    expect(kept.length).toBeLessThan(10);
    expect(kept.at(-1)?.parts[0]?.content).toBe('m9');
    expect(JSON.parse(messagesJson(messages.slice(0, 1), 5))).toHaveLength(1);
  });
});

describe('chain values', () => {
  it('input: the single variable, else input/question/query, else JSON; messages and prompt values as they are', () => {
    const text = (content: string) => [{ role: 'user', parts: [{ type: 'text', content }] }];
    expect(chainInputMessages({ topic: 'x' }, 100)).toEqual(text('x'));
    expect(chainInputMessages({ question: 'q?', context: 'c' }, 100)).toEqual(text('q?'));
    expect(chainInputMessages({ query: 'find', k: 3 }, 100)).toEqual(text('find'));
    expect(chainInputMessages({ a: 1, b: 2 }, 100)).toEqual(text('{"a":1,"b":2}'));
    expect(chainInputMessages('plain', 100)).toEqual(text('plain'));
    expect(chainInputMessages({ messages: [new SystemMessage('s'), new HumanMessage('h')] }, 100)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 's' }] },
      { role: 'user', parts: [{ type: 'text', content: 'h' }] },
    ]);
    expect(chainInputMessages(new ChatPromptValue([new HumanMessage('from prompt')]), 100)).toEqual(
      text('from prompt'),
    );
  });

  it('output: a string, the last message of a list, or JSON', () => {
    const answer = (content: string, finish = 'stop') => [
      { role: 'assistant', parts: [{ type: 'text', content }], finish_reason: finish },
    ];
    expect(chainOutputMessages({ output: 'done' }, 100)).toEqual(answer('done'));
    expect(chainOutputMessages({ answer: 'yes', sources: [] }, 100)).toEqual(answer('yes'));
    expect(chainOutputMessages({ messages: [new HumanMessage('q'), new AIMessage('final')] }, 100)).toEqual(
      answer('final'),
    );
    expect(chainOutputMessages([1, 2], 100)).toEqual(answer('[1,2]'));
  });
});

describe('LLM results', () => {
  it('usage: tokenUsage, else usage_metadata, else Anthropic-style usage, else the estimate', () => {
    const message = new AIMessage({
      content: 'x',
      usage_metadata: { input_tokens: 5, output_tokens: 6, total_tokens: 11 },
    });
    const generations = [[{ text: 'x', message }]];
    expect(
      llmOutcome(
        { generations, llmOutput: { tokenUsage: { promptTokens: 1, completionTokens: 2 } } },
        '',
        100,
      ).usage,
    ).toEqual({ inputTokens: 1, outputTokens: 2 });
    expect(
      llmOutcome(
        { generations, llmOutput: { estimatedTokenUsage: { promptTokens: 9, completionTokens: 9 } } },
        '',
        100,
      ).usage,
    ).toEqual({ inputTokens: 5, outputTokens: 6 });
    expect(
      llmOutcome(
        { generations: [[{ text: 'x' }]], llmOutput: { usage: { input_tokens: 3, output_tokens: 4 } } },
        '',
        100,
      ).usage,
    ).toEqual({ inputTokens: 3, outputTokens: 4 });
    expect(
      llmOutcome(
        {
          generations: [[{ text: 'x' }]],
          llmOutput: { estimatedTokenUsage: { promptTokens: 7, completionTokens: 8 } },
        },
        '',
        100,
      ).usage,
    ).toEqual({ inputTokens: 7, outputTokens: 8 });
    expect(llmOutcome({ generations: [[{ text: 'x' }]] }, '', 100).usage).toEqual({});
  });

  it('finish reason from generation info, else response metadata; model from response metadata', () => {
    const outcome = llmOutcome(
      {
        generations: [
          [
            {
              text: 'a',
              generationInfo: { finish_reason: 'length' },
              message: new AIMessage({
                content: 'a',
                response_metadata: { model_name: 'm-1', stop_reason: 'end_turn' },
              }),
            },
          ],
        ],
      },
      '',
      100,
    );
    expect(outcome.finishReasons).toEqual(['length']);
    expect(outcome.responseModel).toBe('m-1');
  });
});

describe('model and provider', () => {
  it('model from invocation params, else ls_model_name; provider from ls_provider, else the class', () => {
    const serialized = {
      lc: 1,
      type: 'constructor',
      id: ['langchain', 'chat_models', 'ChatAnthropic'],
      kwargs: {},
    };
    expect(modelInfo(serialized, { invocation_params: { model_name: 'claude-x' } }, {})).toMatchObject({
      model: 'claude-x',
      provider: 'anthropic',
    });
    expect(modelInfo(serialized, {}, { ls_model_name: 'from-meta', ls_provider: 'OpenAI' })).toMatchObject({
      model: 'from-meta',
      provider: 'openai',
    });
  });

  it('LangChain provider names map to the semantic conventions’ well-known values', () => {
    expect(providerName('azure', undefined)).toBe('azure.ai.openai');
    expect(providerName('amazon_bedrock', undefined)).toBe('aws.bedrock');
    expect(providerName('google_vertexai', undefined)).toBe('gcp.vertex_ai');
    expect(providerName(undefined, 'ChatOllama')).toBe('ollama');
    expect(providerName(undefined, undefined)).toBeUndefined();
  });
});
