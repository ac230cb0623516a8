import type { ServerResponse } from 'node:http';
import { decideAnswer, type ModelAnswer } from './answer.js';
import { isRecord } from './conversation.js';
import type { HandlerContext } from './handler-context.js';
import { sendJson } from './http-io.js';
import { makeId, unixSeconds } from './ids.js';
import { parseOpenAiResponses } from './parse-openai-responses.js';
import { type SseEvent, writeSse } from './sse.js';
import { streamingChunks } from './text.js';

/** `POST /v1/responses`: a response object, or the Responses API's typed SSE events. */
export async function handleOpenAiResponses(
  body: unknown,
  res: ServerResponse,
  context: HandlerContext,
): Promise<void> {
  const conversation = parseOpenAiResponses(body);
  context.record(conversation.request);
  const answer = decideAnswer(conversation, context.respond);
  const request = isRecord(body) ? body : {};
  const ids = { response: makeId('resp_', 48), item: makeId(answer.kind === 'text' ? 'msg_' : 'fc_', 48) };
  const final = responseObject(
    request,
    conversation.request.model,
    ids.response,
    answer,
    outputItem(answer, ids.item),
  );
  if (!conversation.request.stream) {
    sendJson(res, 200, final);
    return;
  }
  await writeSse(res, responseEvents(final, answer, ids.item), context.pacing);
}

type OutputItem = Record<string, unknown>;

function outputItem(answer: ModelAnswer, itemId: string): OutputItem {
  if (answer.kind === 'tool_call') {
    return {
      id: itemId,
      type: 'function_call',
      status: 'completed',
      call_id: makeId('call_'),
      name: answer.name,
      arguments: answer.argumentsJson,
    };
  }
  return {
    id: itemId,
    type: 'message',
    status: answer.truncated ? 'incomplete' : 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: answer.text, annotations: [], logprobs: [] }],
  };
}

function responseObject(
  request: Record<string, unknown>,
  model: string,
  id: string,
  answer: ModelAnswer,
  item: OutputItem,
) {
  const truncated = answer.kind === 'text' && answer.truncated;
  return {
    id,
    object: 'response',
    created_at: unixSeconds(),
    status: truncated ? 'incomplete' : 'completed',
    background: false,
    error: null,
    incomplete_details: truncated ? { reason: 'max_output_tokens' } : null,
    instructions: typeof request.instructions === 'string' ? request.instructions : null,
    max_output_tokens: request.max_output_tokens ?? null,
    metadata: isRecord(request.metadata) ? request.metadata : {},
    model,
    output: [item],
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: request.text ?? { format: { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: Array.isArray(request.tools) ? request.tools : [],
    top_p: request.top_p ?? 1,
    truncation: 'disabled',
    usage: {
      input_tokens: answer.promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: answer.completionTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: answer.promptTokens + answer.completionTokens,
    },
    user: null,
  };
}

function responseEvents(
  final: ReturnType<typeof responseObject>,
  answer: ModelAnswer,
  itemId: string,
): SseEvent[] {
  const inProgress = { ...final, status: 'in_progress', incomplete_details: null, output: [], usage: null };
  const item = final.output[0] as OutputItem;
  const events: Array<Record<string, unknown> & { type: string }> = [
    { type: 'response.created', response: inProgress },
    { type: 'response.in_progress', response: inProgress },
  ];
  const at = { item_id: itemId, output_index: 0 };
  if (answer.kind === 'tool_call') {
    events.push({
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...item, status: 'in_progress', arguments: '' },
    });
    for (const delta of streamingChunks(answer.argumentsJson)) {
      events.push({ type: 'response.function_call_arguments.delta', ...at, delta });
    }
    events.push({
      type: 'response.function_call_arguments.done',
      ...at,
      name: answer.name,
      arguments: answer.argumentsJson,
    });
  } else {
    const part = { type: 'output_text', annotations: [], logprobs: [] };
    events.push(
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...item, status: 'in_progress', content: [] },
      },
      { type: 'response.content_part.added', ...at, content_index: 0, part: { ...part, text: '' } },
    );
    for (const delta of streamingChunks(answer.text)) {
      events.push({ type: 'response.output_text.delta', ...at, content_index: 0, delta, logprobs: [] });
    }
    events.push(
      { type: 'response.output_text.done', ...at, content_index: 0, text: answer.text, logprobs: [] },
      { type: 'response.content_part.done', ...at, content_index: 0, part: { ...part, text: answer.text } },
    );
  }
  events.push({ type: 'response.output_item.done', output_index: 0, item });
  events.push({
    type: final.status === 'incomplete' ? 'response.incomplete' : 'response.completed',
    response: final,
  });
  return events.map((event, sequence) => ({
    event: event.type,
    data: JSON.stringify({ ...event, sequence_number: sequence }),
  }));
}
