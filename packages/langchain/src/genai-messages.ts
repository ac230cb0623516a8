/**
 * LangChain messages in the GenAI semantic conventions' message form, the JSON written to
 * `gen_ai.input.messages` / `gen_ai.output.messages`.
 */
import { type MessageView, nonEmptyString, type ToolCallView, viewMessage } from './message-view.js';
import { safeStringify, toJsonSafe, truncateText } from './safe-json.js';

/** A role of the GenAI message schema. */
export type GenAiRole = 'system' | 'user' | 'assistant' | 'tool';

/** A part of a GenAI message. */
export type GenAiPart =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id?: string; name: string; arguments?: unknown }
  | { type: 'tool_call_response'; id?: string; response: unknown };

/** An input message: `{ role, parts }`. */
export interface GenAiMessage {
  role: GenAiRole;
  parts: GenAiPart[];
}

/** An output message: always the assistant's, with why generation stopped. */
export interface GenAiOutputMessage {
  role: 'assistant';
  parts: GenAiPart[];
  finish_reason: string;
}

const ROLES: Record<string, GenAiRole> = {
  human: 'user',
  user: 'user',
  ai: 'assistant',
  assistant: 'assistant',
  system: 'system',
  developer: 'system',
  tool: 'tool',
  function: 'tool',
};

const MEDIA_BLOCKS = new Set(['image_url', 'image', 'file', 'audio', 'video', 'input_audio', 'document']);

/** The GenAI role of a message: human→user, ai→assistant, system→system, tool→tool. */
export function roleOf(view: MessageView): GenAiRole {
  return ROLES[view.type] ?? (view.role !== undefined ? ROLES[view.role.toLowerCase()] : undefined) ?? 'user';
}

/**
 * The text of message content: a string as it is, content blocks' text joined; media blocks
 * become a placeholder such as `[image]` so the reader knows something was there.
 */
export function contentText(content: unknown, maxChars: number): string {
  if (typeof content === 'string') return truncateText(content, maxChars);
  if (!Array.isArray(content))
    return content === undefined || content === null ? '' : safeStringify(content, maxChars);
  const pieces: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') pieces.push(block);
    else if (typeof block === 'object' && block !== null) {
      const { type, text } = block as { type?: unknown; text?: unknown };
      if (typeof text === 'string' && (type === 'text' || type === undefined)) pieces.push(text);
      else if (typeof type === 'string' && MEDIA_BLOCKS.has(type))
        pieces.push(`[${type === 'image_url' ? 'image' : type}]`);
    }
  }
  return truncateText(pieces.join(''), maxChars);
}

function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/** A `tool_call` part of a requested tool call. */
export function toolCallPart(call: ToolCallView, maxChars: number): GenAiPart {
  const part: GenAiPart = { type: 'tool_call', name: call.name };
  if (call.id !== undefined) part.id = call.id;
  if (call.args !== undefined) part.arguments = toJsonSafe(parseArguments(call.args), { maxChars });
  return part;
}

/** The parts of a message: its text, then (assistant) its tool calls, or (tool) its result. */
export function partsOf(view: MessageView, maxChars: number): GenAiPart[] {
  const role = roleOf(view);
  if (role === 'tool') {
    const part: GenAiPart = { type: 'tool_call_response', response: contentText(view.content, maxChars) };
    if (view.toolCallId !== undefined) part.id = view.toolCallId;
    return [part];
  }
  const parts: GenAiPart[] = [];
  const text = contentText(view.content, maxChars);
  if (text !== '') parts.push({ type: 'text', content: text });
  if (role === 'assistant') for (const call of view.toolCalls) parts.push(toolCallPart(call, maxChars));
  return parts;
}

/** A GenAI input message of a LangChain message, or `undefined` when `value` is not one. */
export function toGenAiMessage(value: unknown, maxChars: number): GenAiMessage | undefined {
  const view = viewMessage(value);
  return view === undefined ? undefined : { role: roleOf(view), parts: partsOf(view, maxChars) };
}

/** A user (or other role) message holding one text part. */
export function textMessage(role: GenAiRole, text: string, maxChars: number): GenAiMessage {
  return { role, parts: [{ type: 'text', content: truncateText(text, maxChars) }] };
}

/**
 * The JSON of a message list within `maxTotalChars`: when it is longer, the oldest messages are
 * left out (the newest, the one that matters most for the prompt, is always kept).
 */
export function messagesJson(messages: readonly object[], maxTotalChars: number): string {
  const encoded = messages.map((message) => JSON.stringify(message));
  let total = 2;
  let first = encoded.length;
  while (first > 0) {
    const next = (encoded[first - 1] as string).length + 1;
    if (first < encoded.length && total + next > maxTotalChars) break;
    total += next;
    first -= 1;
  }
  return `[${encoded.slice(first).join(',')}]`;
}

/** A finish reason read from provider metadata, if any. */
export function finishReasonOf(metadata: Record<string, unknown> | undefined): string | undefined {
  if (metadata === undefined) return undefined;
  return (
    nonEmptyString(metadata.finish_reason) ??
    nonEmptyString(metadata.stop_reason) ??
    nonEmptyString(metadata.finishReason)
  );
}
