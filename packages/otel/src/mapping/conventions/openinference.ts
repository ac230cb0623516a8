import { argumentsText, contentText } from '../content-text.js';
import { groupIndexed } from '../indexed.js';
import { type Message, normaliseRole, type ToolCall } from '../messages.js';
import type { SpanView } from '../span-view.js';
import { firstString, tokenCounts, variableStrings } from './read-helpers.js';
import type { ConventionReader, SpanRole } from './types.js';

const DOCUMENTS_PREFIX = 'retrieval.documents.';
const KINDS: Record<string, SpanRole> = {
  LLM: 'llm',
  CHAIN: 'top',
  AGENT: 'top',
  TOOL: 'tool',
  RETRIEVER: 'retriever',
  RERANKER: 'other',
  EMBEDDING: 'other',
  GUARDRAIL: 'other',
  EVALUATOR: 'other',
  PROMPT: 'other',
};

/** Where a step's input and output variables are. */
const OPENINFERENCE_STEP_KEYS = ['input.value', 'output.value'];

/**
 * `message_content.type` values whose `message_content.text` is what was said: Chat Completions'
 * `text`, the Responses API's `input_text` / `output_text`, and a model's `refusal`. Reasoning
 * summaries and media are left out, as in every other convention.
 */
const TEXT_CONTENT_TYPES = new Set(['text', 'input_text', 'output_text', 'refusal']);

/** The text of a flattened `message.contents.{j}.message_content.*` array (text parts only). */
function contentsText(fields: Record<string, unknown>): string {
  const texts: string[] = [];
  for (const part of groupIndexed(fields, 'message.contents.')) {
    const type = part['message_content.type'];
    const text = part['message_content.text'];
    if (typeof text === 'string' && (type === undefined || TEXT_CONTENT_TYPES.has(String(type))))
      texts.push(text);
  }
  return contentText(texts);
}

/** One message from its flattened keys (relative to `llm.{input|output}_messages.{i}.`). */
function flattenedMessage(fields: Record<string, unknown>): Message {
  let text = typeof fields['message.content'] === 'string' ? fields['message.content'] : '';
  // The Responses API (and multimodal Chat input) sends content as an array of parts instead.
  if (text === '') text = contentsText(fields);
  const toolCalls: ToolCall[] = [];
  for (const call of groupIndexed(fields, 'message.tool_calls.')) {
    const name = call['tool_call.function.name'];
    if (typeof name === 'string')
      toolCalls.push({ name, arguments: argumentsText(call['tool_call.function.arguments']) });
  }
  const functionName = fields['message.function_call_name'];
  if (typeof functionName === 'string') {
    toolCalls.push({
      name: functionName,
      arguments: argumentsText(fields['message.function_call_arguments_json']),
    });
  }
  const role = normaliseRole(fields['message.role']);
  const message: Message = { role, text };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  if (role === 'tool') message.toolResult = true;
  else if (fields['message.tool_call_id'] !== undefined) {
    // Anthropic returns tool results in a user message: the result is in `message.content`, and
    // the user's own words, when any follow it, in `message.contents`. Those are what was asked.
    const words = contentsText(fields);
    if (words.trim() === '') message.toolResult = true;
    else message.text = words;
  }
  return message;
}

function flattenedMessages(view: SpanView, prefix: string, memoKey: string): Message[] | undefined {
  return view.memo(memoKey, () => {
    const groups = groupIndexed(view.attributes, prefix, view.keys.withPrefix(prefix));
    return groups.length > 0 ? groups.map(flattenedMessage) : undefined;
  });
}

/** `input.value` / `output.value`: plain text, or JSON when the mime type says so (or it looks like it). */
function genericValue(view: SpanView, key: string, mimeKey: string): Message[] | undefined {
  const raw = view.str(key);
  if (raw === undefined) return undefined;
  if (view.str(mimeKey) === 'text/plain') return [{ role: undefined, text: raw }];
  return view.messages(key);
}

/**
 * OpenInference (Arize): `openinference.span.kind`, flattened `llm.input_messages.{i}.message.*` /
 * `llm.output_messages.{i}.message.*`, `input.value` / `output.value`, `llm.model_name`,
 * `llm.provider` / `llm.system`, `llm.token_count.*`, `retrieval.documents.{i}.document.content`.
 */
export const openInferenceReader: ConventionReader = {
  name: 'openinference',
  detect: (view) =>
    view.get('openinference.span.kind') !== undefined || view.keys.hasPrefix('llm.input_messages.'),
  kind(view) {
    const kind = view.str('openinference.span.kind');
    return kind === undefined ? undefined : (KINDS[kind.toUpperCase()] ?? 'other');
  },
  prompt: (view) =>
    flattenedMessages(view, 'llm.input_messages.', 'openinference:input') ??
    genericValue(view, 'input.value', 'input.mime_type'),
  response: (view) =>
    flattenedMessages(view, 'llm.output_messages.', 'openinference:output') ??
    genericValue(view, 'output.value', 'output.mime_type'),
  model: (view) => firstString(view, ['llm.model_name', 'llm.response.model_name', 'llm.request.model_name']),
  provider: (view) => firstString(view, ['llm.provider', 'llm.system']),
  usage: (view) =>
    tokenCounts(
      view.num('llm.token_count.prompt'),
      view.num('llm.token_count.completion'),
      view.num('llm.token_count.total'),
    ),
  context(view) {
    const keys = view.keys.withPrefix(DOCUMENTS_PREFIX);
    if (keys.length === 0) return undefined;
    const documents = groupIndexed(view.attributes, DOCUMENTS_PREFIX, keys)
      .map((document) => document['document.content'])
      .filter((content): content is string => typeof content === 'string' && content !== '');
    return documents.length > 0 ? documents : undefined;
  },
  stepValues: (view) => variableStrings(view, OPENINFERENCE_STEP_KEYS),
  session: (view) => firstString(view, ['session.id']),
  user: (view) => firstString(view, ['user.id']),
};
