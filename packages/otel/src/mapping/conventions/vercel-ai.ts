import { toolCallsOfList } from '../content-text.js';
import type { Message } from '../messages.js';
import type { SpanView } from '../span-view.js';
import { firstNumber, firstString, prefixedMetadata, scopeName, tokenCounts } from './read-helpers.js';
import type { ConventionReader, SpanRole } from './types.js';

/** Model-call spans of the AI SDK (v6 and v7 `LegacyOpenTelemetry`). */
const LLM_OPERATIONS = new Set([
  'ai.generateText.doGenerate',
  'ai.streamText.doStream',
  'ai.generateObject.doGenerate',
  'ai.streamObject.doStream',
]);
/** The outer spans of one AI SDK call. */
const TOP_OPERATIONS = new Set(['ai.generateText', 'ai.streamText', 'ai.generateObject', 'ai.streamObject']);
const OTHER_OPERATIONS = new Set([
  'ai.embed',
  'ai.embedMany',
  'ai.embed.doEmbed',
  'ai.embedMany.doEmbed',
  'ai.rerank',
]);

const METADATA_PREFIX = 'ai.telemetry.metadata.';
const ID_KEYS = new Set(['sessionId', 'userId', 'session_id', 'user_id']);
// Full attribute keys built once: a key concatenated per call must be hashed on every lookup.
const SESSION_ATTRIBUTES = [`${METADATA_PREFIX}sessionId`, `${METADATA_PREFIX}session_id`];
const USER_ATTRIBUTES = [`${METADATA_PREFIX}userId`, `${METADATA_PREFIX}user_id`];

function operationId(view: SpanView): string | undefined {
  return view.str('ai.operationId') ?? (view.span.name.startsWith('ai.') ? view.span.name : undefined);
}

/** `ai.response.text` (or `ai.response.object`) plus `ai.response.toolCalls`, as one assistant message. */
function responseMessage(view: SpanView): Message[] | undefined {
  const text = view.str('ai.response.text') ?? view.str('ai.response.object');
  const calls = toolCallsOfList(view.json('ai.response.toolCalls'));
  if (text === undefined && calls.length === 0) return undefined;
  const message: Message = { role: 'assistant', text: text ?? '' };
  if (calls.length > 0) message.toolCalls = calls;
  return [message];
}

/**
 * The Vercel AI SDK's own `ai.*` spans (v6, and v7's `LegacyOpenTelemetry`): `ai.operationId`,
 * `ai.prompt.messages` / `ai.prompt` (`{system, prompt, messages}`), `ai.response.*`, `ai.usage.*`,
 * `ai.model.*`, `ai.telemetry.metadata.*`. (v7's `OpenTelemetry` integration is read as semconv.)
 */
export const vercelAiReader: ConventionReader = {
  name: 'vercel-ai',
  detect: (view) => view.get('ai.operationId') !== undefined || scopeName(view) === 'ai',
  kind(view): SpanRole | undefined {
    const operation = operationId(view);
    if (operation === undefined) return undefined;
    if (LLM_OPERATIONS.has(operation)) return 'llm';
    if (TOP_OPERATIONS.has(operation)) return 'top';
    if (operation === 'ai.toolCall') return 'tool';
    return OTHER_OPERATIONS.has(operation) || operation.startsWith('ai.') ? 'other' : undefined;
  },
  prompt: (view) => view.messages('ai.prompt.messages') ?? view.messages('ai.prompt'),
  response: (view) => view.memo('vercel-ai:response', () => responseMessage(view)),
  model: (view) => firstString(view, ['ai.response.model', 'ai.model.id']),
  provider: (view) => firstString(view, ['ai.model.provider']),
  usage: (view) =>
    tokenCounts(
      firstNumber(view, ['ai.usage.inputTokens', 'ai.usage.promptTokens']),
      firstNumber(view, ['ai.usage.outputTokens', 'ai.usage.completionTokens']),
      firstNumber(view, ['ai.usage.totalTokens']),
    ),
  session: (view) => firstString(view, SESSION_ATTRIBUTES),
  user: (view) => firstString(view, USER_ATTRIBUTES),
  metadata: (view) => prefixedMetadata(view, METADATA_PREFIX, ID_KEYS),
};
