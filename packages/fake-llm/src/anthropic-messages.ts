import type { ServerResponse } from 'node:http';
import { decideAnswer, type ModelAnswer } from './answer.js';
import type { HandlerContext } from './handler-context.js';
import { sendJson } from './http-io.js';
import { makeId } from './ids.js';
import { parseAnthropic } from './parse-anthropic.js';
import { type SseEvent, writeSse } from './sse.js';
import { countWords, streamingChunks } from './text.js';

/** `POST /v1/messages`: a message, or Anthropic's SSE events from `message_start` to `message_stop`. */
export async function handleAnthropicMessages(
  body: unknown,
  res: ServerResponse,
  context: HandlerContext,
): Promise<void> {
  const conversation = parseAnthropic(body);
  context.record(conversation.request);
  const answer = decideAnswer(conversation, context.respond);
  const block = contentBlock(answer);
  const message = {
    id: makeId('msg_01', 22),
    type: 'message',
    role: 'assistant',
    model: conversation.request.model,
    content: [block],
    stop_reason: stopReason(answer),
    stop_sequence: null,
    usage: usage(answer.promptTokens, answer.completionTokens),
  };
  if (!conversation.request.stream) {
    sendJson(res, 200, message);
    return;
  }
  await writeSse(res, messageEvents(message, answer), context.pacing);
}

/** `POST /v1/messages/count_tokens`: `{ input_tokens }`, counted as the answers count them. */
export function handleAnthropicCountTokens(body: unknown, res: ServerResponse): void {
  const { request } = parseAnthropic(body, true);
  const inputTokens = request.messages.reduce((sum, message) => sum + countWords(message.content), 0);
  sendJson(res, 200, { input_tokens: inputTokens });
}

function usage(inputTokens: number, outputTokens: number) {
  return {
    input_tokens: inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

function stopReason(answer: ModelAnswer): 'end_turn' | 'max_tokens' | 'tool_use' {
  if (answer.kind === 'tool_call') return 'tool_use';
  return answer.truncated ? 'max_tokens' : 'end_turn';
}

function contentBlock(answer: ModelAnswer): Record<string, unknown> {
  if (answer.kind === 'tool_call') {
    return { type: 'tool_use', id: makeId('toolu_01', 22), name: answer.name, input: answer.input };
  }
  return { type: 'text', text: answer.text, citations: null };
}

function messageEvents(
  message: { content: Record<string, unknown>[]; stop_reason: string } & Record<string, unknown>,
  answer: ModelAnswer,
): SseEvent[] {
  const block = message.content[0] as Record<string, unknown>;
  const start = {
    ...message,
    content: [],
    stop_reason: null,
    usage: usage(answer.promptTokens, Math.min(1, answer.completionTokens)),
  };
  const events: Array<Record<string, unknown> & { type: string }> = [
    { type: 'message_start', message: start },
  ];
  if (answer.kind === 'tool_call') {
    events.push({ type: 'content_block_start', index: 0, content_block: { ...block, input: {} } });
    for (const partial of streamingChunks(answer.argumentsJson)) {
      events.push({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: partial },
      });
    }
  } else {
    events.push({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '', citations: null },
    });
    events.push({ type: 'ping' });
    for (const text of streamingChunks(answer.text)) {
      events.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
    }
  }
  events.push(
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: answer.completionTokens },
    },
    { type: 'message_stop' },
  );
  return events.map((event) => ({ event: event.type, data: JSON.stringify(event) }));
}
