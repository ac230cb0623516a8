import type { ServerResponse } from 'node:http';
import { decideAnswer, type ModelAnswer } from './answer.js';
import type { HandlerContext } from './handler-context.js';
import { sendJson } from './http-io.js';
import { makeId, unixSeconds } from './ids.js';
import { parseOpenAiChat } from './parse-openai-chat.js';
import { type SseEvent, writeSse } from './sse.js';
import { streamingChunks } from './text.js';

const SYSTEM_FINGERPRINT = 'fp_aqm_fake';

/** `POST /v1/chat/completions`: a completion, or `chat.completion.chunk` SSE ending with `[DONE]`. */
export async function handleOpenAiChat(
  body: unknown,
  res: ServerResponse,
  context: HandlerContext,
): Promise<void> {
  const { conversation, streamOptions } = parseOpenAiChat(body);
  context.record(conversation.request);
  const answer = decideAnswer(conversation, context.respond);
  const head = { id: makeId('chatcmpl-', 29), created: unixSeconds(), model: conversation.request.model };
  if (!conversation.request.stream) {
    sendJson(res, 200, chatCompletion(head, answer));
    return;
  }
  await writeSse(res, chatChunks(head, answer, streamOptions.includeUsage), context.pacing);
}

interface CompletionHead {
  id: string;
  created: number;
  model: string;
}

function finishReason(answer: ModelAnswer): 'stop' | 'length' | 'tool_calls' {
  if (answer.kind === 'tool_call') return 'tool_calls';
  return answer.truncated ? 'length' : 'stop';
}

/** OpenAI's usage object, with the detail fields real answers carry. */
export function chatUsage(answer: ModelAnswer) {
  return {
    prompt_tokens: answer.promptTokens,
    completion_tokens: answer.completionTokens,
    total_tokens: answer.promptTokens + answer.completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function chatCompletion(head: CompletionHead, answer: ModelAnswer) {
  const message =
    answer.kind === 'text'
      ? { role: 'assistant', content: answer.text, refusal: null, annotations: [] }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          annotations: [],
          tool_calls: [
            {
              id: makeId('call_'),
              type: 'function',
              function: { name: answer.name, arguments: answer.argumentsJson },
            },
          ],
        };
  return {
    ...head,
    object: 'chat.completion',
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(answer) }],
    usage: chatUsage(answer),
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

function chatChunks(head: CompletionHead, answer: ModelAnswer, includeUsage: boolean): SseEvent[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...head,
    object: 'chat.completion.chunk',
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: unknown[] = [];
  if (answer.kind === 'text') {
    chunks.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const piece of streamingChunks(answer.text)) chunks.push(chunk({ content: piece }));
  } else {
    const call = {
      index: 0,
      id: makeId('call_'),
      type: 'function',
      function: { name: answer.name, arguments: '' },
    };
    chunks.push(chunk({ role: 'assistant', content: null, refusal: null, tool_calls: [call] }));
    for (const piece of streamingChunks(answer.argumentsJson)) {
      chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    }
  }
  chunks.push(chunk({}, finishReason(answer)));
  if (includeUsage) {
    chunks.push({
      ...head,
      object: 'chat.completion.chunk',
      service_tier: 'default',
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices: [],
      usage: chatUsage(answer),
    });
  }
  return [...chunks.map((data) => ({ data: JSON.stringify(data) })), { data: '[DONE]' }];
}
