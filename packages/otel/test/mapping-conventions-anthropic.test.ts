import { type Attributes, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { mapTrace } from './mapping-helpers/expect-record.js';
import { buildTrace, json } from './mapping-helpers/spans.js';

// Anthropic's message shapes as the three Anthropic sources put them on their spans (read from
// @anthropic-ai/sdk 1.14.0 src/lib/internal/tracing/content.ts, @traceloop/instrumentation-utils
// 0.27.0 mapAnthropicContentBlock, @arizeai/openinference-instrumentation-anthropic 0.2.8): content is
// a string or a list of blocks (text, tool_use, tool_result), and tool results go back in a *user*
// message, where the user's own words may follow them.

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string };
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | Block[];
}

const MODEL = 'claude-haiku-4-5';
const ANSWER = 'Based on get_capital: Rome';

/** The SDK's semconv part of a block (its tool results keep their content as text blocks). */
function sdkPart(block: Block): Record<string, unknown> {
  if (block.type === 'text') return { type: 'text', content: block.text };
  if (block.type === 'tool_use')
    return { type: 'tool_call', id: block.id, name: block.name, arguments: block.input };
  return {
    type: 'tool_call_response',
    id: block.tool_use_id,
    response: [{ type: 'text', text: block.content }],
  };
}

/** Traceloop's semconv part of a block (its tool results keep the content as given). */
function traceloopPart(block: Block): Record<string, unknown> {
  if (block.type === 'tool_result')
    return { type: 'tool_call_response', id: block.tool_use_id, response: block.content };
  return sdkPart(block);
}

function semconvMessages(
  messages: AnthropicMessage[],
  part: (block: Block) => Record<string, unknown>,
): string {
  return json(
    messages.map((message) => ({
      role: message.role,
      parts:
        typeof message.content === 'string'
          ? [{ type: 'text', content: message.content }]
          : message.content.map(part),
    })),
  );
}

/** OpenInference's flattened input message: a tool result's content in `message.content`, text in `message.contents`. */
function openInferenceInput(messages: AnthropicMessage[]): Attributes {
  const attributes: Attributes = {};
  messages.forEach((message, i) => {
    const prefix = `llm.input_messages.${i}.message.`;
    attributes[`${prefix}role`] = message.role;
    if (typeof message.content === 'string') {
      attributes[`${prefix}content`] = message.content;
      return;
    }
    let tool = 0;
    message.content.forEach((block, j) => {
      const part = `${prefix}contents.${j}.message_content.`;
      if (block.type === 'text') {
        attributes[`${part}type`] = 'text';
        attributes[`${part}text`] = block.text;
      } else if (block.type === 'tool_use') {
        attributes[`${prefix}tool_calls.${tool}.tool_call.id`] = block.id;
        attributes[`${prefix}tool_calls.${tool}.tool_call.function.name`] = block.name;
        attributes[`${prefix}tool_calls.${tool}.tool_call.function.arguments`] = json(block.input);
        attributes[`${part}type`] = 'tool_use';
        tool += 1;
      } else {
        attributes[`${prefix}tool_call_id`] = block.tool_use_id;
        attributes[`${prefix}content`] = block.content;
      }
    });
  });
  return attributes;
}

const SPANS = {
  'the SDK (gen_ai.* in content mode)': (messages: AnthropicMessage[]) =>
    buildTrace({
      name: 'anthropic.messages.create',
      kind: SpanKind.CLIENT,
      scope: 'com.anthropic.sdk.typescript',
      attributes: {
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': MODEL,
        'gen_ai.input.messages': semconvMessages(messages, sdkPart),
        'gen_ai.output.messages': json([{ role: 'assistant', parts: [{ type: 'text', content: ANSWER }] }]),
      },
      status: { code: SpanStatusCode.OK },
    }),
  Traceloop: (messages: AnthropicMessage[]) =>
    buildTrace({
      name: `chat ${MODEL}`,
      kind: SpanKind.CLIENT,
      scope: '@traceloop/instrumentation-anthropic',
      attributes: {
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': MODEL,
        'gen_ai.input.messages': semconvMessages(messages, traceloopPart),
        'gen_ai.output.messages': json([
          { role: 'assistant', finish_reason: 'stop', parts: [{ type: 'text', content: ANSWER }] },
        ]),
      },
    }),
  OpenInference: (messages: AnthropicMessage[]) =>
    buildTrace({
      name: 'Anthropic Messages',
      kind: SpanKind.INTERNAL,
      scope: '@arizeai/openinference-instrumentation-anthropic',
      attributes: {
        'openinference.span.kind': 'LLM',
        'llm.model_name': MODEL,
        'llm.provider': 'anthropic',
        'input.value': json({ model: MODEL, max_tokens: 256, messages }),
        'input.mime_type': 'application/json',
        ...openInferenceInput(messages),
        'llm.output_messages.0.message.role': 'assistant',
        'llm.output_messages.0.message.contents.0.message_content.type': 'text',
        'llm.output_messages.0.message.contents.0.message_content.text': ANSWER,
      },
      status: { code: SpanStatusCode.OK },
    }),
};

const QUESTION = 'Use get_capital: what is the capital of Italy?';
const TOOL_USE: Block = { type: 'tool_use', id: 'toolu_1', name: 'get_capital', input: { country: 'Italy' } };
const TOOL_RESULT: Block = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Rome' };

describe.each(Object.entries(SPANS))('Anthropic message shapes read from %s', (_source, span) => {
  it('a string content and a list of text blocks are what the user asked', () => {
    expect(mapTrace(span([{ role: 'user', content: QUESTION }])).prompt).toBe(QUESTION);
    const blocks = mapTrace(span([{ role: 'user', content: [{ type: 'text', text: QUESTION }] }]));
    expect(blocks.prompt).toBe(QUESTION);
    expect(blocks.response).toBe(ANSWER);
  });

  it('a user message of tool results only is not what the user asked: the question before it is', () => {
    const record = mapTrace(
      span([
        { role: 'user', content: QUESTION },
        { role: 'assistant', content: [TOOL_USE] },
        { role: 'user', content: [TOOL_RESULT] },
      ]),
    );
    expect(record.prompt).toBe(QUESTION);
  });

  it("the user's words after the tool results in one message are what the user asked, without the results", () => {
    const record = mapTrace(
      span([
        { role: 'user', content: QUESTION },
        { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, TOOL_USE] },
        { role: 'user', content: [TOOL_RESULT, { type: 'text', text: 'And say it in French.' }] },
      ]),
    );
    expect(record.prompt).toBe('And say it in French.');
  });
});
