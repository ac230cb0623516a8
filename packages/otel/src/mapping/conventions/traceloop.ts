import { argumentsText, contentText } from '../content-text.js';
import { groupIndexed } from '../indexed.js';
import { parseJsonLoose } from '../json.js';
import { type Message, normaliseRole, type ToolCall } from '../messages.js';
import type { SpanView } from '../span-view.js';
import { firstString, prefixedMetadata, scopeName, variableStrings } from './read-helpers.js';
import type { ConventionReader, SpanRole } from './types.js';

const ASSOCIATION_PREFIX = 'traceloop.association.properties.';
const SESSION_KEYS = ['session_id', 'sessionId'];
const USER_KEYS = ['user_id', 'userId'];
const ID_KEYS = new Set([...SESSION_KEYS, ...USER_KEYS]);
// Full attribute keys built once: a key concatenated per call must be hashed on every lookup.
const SESSION_ATTRIBUTES = SESSION_KEYS.map((key) => ASSOCIATION_PREFIX + key);
const USER_ATTRIBUTES = USER_KEYS.map((key) => ASSOCIATION_PREFIX + key);

/** Where a step's input and output variables are. */
const TRACELOOP_STEP_KEYS = ['traceloop.entity.input', 'traceloop.entity.output'];

/** Legacy `content`: a string, or a JSON string of an array of content parts. */
function legacyContent(value: unknown): string {
  if (typeof value !== 'string') return '';
  const parsed = parseJsonLoose(value);
  return Array.isArray(parsed) ? contentText(parsed) : value;
}

/** One legacy message from its keys (relative to `gen_ai.prompt.{i}.` or `gen_ai.completion.{i}.`). */
function legacyMessage(fields: Record<string, unknown>): Message {
  const toolCalls: ToolCall[] = [];
  for (const call of groupIndexed(fields, 'tool_calls.')) {
    if (typeof call.name === 'string')
      toolCalls.push({ name: call.name, arguments: argumentsText(call.arguments) });
  }
  const functionName = fields['function_call.name'];
  if (typeof functionName === 'string') {
    toolCalls.push({ name: functionName, arguments: argumentsText(fields['function_call.arguments']) });
  }
  const role = normaliseRole(fields.role);
  const message: Message = { role, text: legacyContent(fields.content) };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  if (role === 'tool') message.toolResult = true;
  return message;
}

function legacyMessages(view: SpanView, prefix: string, memoKey: string): Message[] | undefined {
  return view.memo(memoKey, () => {
    const groups = groupIndexed(view.attributes, prefix, view.keys.withPrefix(prefix));
    return groups.length > 0 ? groups.map(legacyMessage) : undefined;
  });
}

/**
 * OpenLLMetry / Traceloop: legacy (≤ 0.22) `gen_ai.prompt.{i}.*` / `gen_ai.completion.{i}.*` and
 * `llm.request.type`; SDK decorators' `traceloop.span.kind` and `traceloop.entity.input/output`;
 * association properties. (The current format's `gen_ai.*` messages are read as semconv.)
 */
export const traceloopReader: ConventionReader = {
  name: 'traceloop',
  detect: (view) =>
    scopeName(view).startsWith('@traceloop/') ||
    view.get('llm.request.type') !== undefined ||
    view.keys.hasPrefix('traceloop.') ||
    view.keys.hasPrefix('gen_ai.prompt.0.'),
  kind(view): SpanRole | undefined {
    const kind = view.str('traceloop.span.kind');
    if (kind === 'workflow' || kind === 'agent') return 'top';
    if (kind === 'tool') return 'tool';
    if (kind === 'task') return 'other';
    const requestType = view.str('llm.request.type');
    if (requestType === undefined) return undefined;
    return requestType === 'rerank' || requestType === 'embedding' ? 'other' : 'llm';
  },
  prompt: (view) =>
    legacyMessages(view, 'gen_ai.prompt.', 'traceloop:prompt') ?? view.messages('traceloop.entity.input'),
  response: (view) =>
    legacyMessages(view, 'gen_ai.completion.', 'traceloop:completion') ??
    view.messages('traceloop.entity.output'),
  stepValues: (view) => variableStrings(view, TRACELOOP_STEP_KEYS),
  session: (view) => firstString(view, SESSION_ATTRIBUTES),
  user: (view) => firstString(view, USER_ATTRIBUTES),
  metadata: (view) => prefixedMetadata(view, ASSOCIATION_PREFIX, ID_KEYS),
};
