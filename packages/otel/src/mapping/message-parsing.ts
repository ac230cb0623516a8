import {
  contentText,
  isToolResultPart,
  toolCallOfObject,
  toolCallsOfList,
  toolCallsOfParts,
} from './content-text.js';
import { boundedStringify, isRecord, parseJsonLoose } from './json.js';
import { type Message, normaliseRole, type ToolCall } from './messages.js';

const MAX_DEPTH = 6;

/** LangChain message classes (last element of a serialised `id`) → role. */
const LANGCHAIN_CLASS_ROLES: Record<string, string> = {
  HumanMessage: 'user',
  HumanMessageChunk: 'user',
  AIMessage: 'assistant',
  AIMessageChunk: 'assistant',
  SystemMessage: 'system',
  SystemMessageChunk: 'system',
  ToolMessage: 'tool',
  ToolMessageChunk: 'tool',
  FunctionMessage: 'tool',
  FunctionMessageChunk: 'tool',
};
/** LangChain `type` values of `message.toDict()` / plain message objects. */
const LANGCHAIN_TYPES = new Set([
  'human',
  'ai',
  'system',
  'tool',
  'function',
  'chat',
  'generic',
  'developer',
]);

/** Builds a message from an object holding `content`/`parts`/`tool_calls`… and a known role. */
function messageFromFields(role: string | undefined, fields: Record<string, unknown>): Message {
  const parts = Array.isArray(fields.parts) ? fields.parts : undefined;
  const content = parts ?? fields.content ?? fields.text;
  const calls: ToolCall[] = [...toolCallsOfParts(content), ...toolCallsOfList(fields.tool_calls)];
  if (calls.length === 0 && isRecord(fields.additional_kwargs)) {
    calls.push(...toolCallsOfList(fields.additional_kwargs.tool_calls));
  }
  const legacyCall = toolCallOfObject(fields.function_call);
  if (legacyCall !== undefined) calls.push(legacyCall);
  const message: Message = { role, text: contentText(content) };
  if (calls.length > 0) message.toolCalls = calls;
  const allToolResults = Array.isArray(content) && content.length > 0 && content.every(isToolResultPart);
  if (role === 'tool' || allToolResults) message.toolResult = true;
  return message;
}

/**
 * One message from an object in any convention's message shape: semconv `{role, parts}`, OpenAI
 * `{role, content, tool_calls}`, LangChain serialised (`{lc, id, kwargs}`) or dict (`{type, data}`)
 * forms, OpenAI Responses items. `undefined` when the object is not a message.
 */
export function parseMessageObject(value: Record<string, unknown>): Message | undefined {
  if (value.lc === 1 && Array.isArray(value.id) && isRecord(value.kwargs)) {
    const className = value.id.at(-1);
    const kwargs = value.kwargs;
    const role =
      className === 'ChatMessage' || className === 'ChatMessageChunk'
        ? normaliseRole(kwargs.role)
        : typeof className === 'string'
          ? LANGCHAIN_CLASS_ROLES[className]
          : undefined;
    return messageFromFields(role, kwargs);
  }
  const type = typeof value.type === 'string' ? value.type : undefined;
  if (type !== undefined && isRecord(value.data) && LANGCHAIN_TYPES.has(type)) {
    const role = type === 'chat' ? normaliseRole(value.data.role) : normaliseRole(type);
    return messageFromFields(role, value.data);
  }
  if (typeof value.role === 'string') return messageFromFields(normaliseRole(value.role), value);
  if (type !== undefined && LANGCHAIN_TYPES.has(type) && 'content' in value) {
    return messageFromFields(normaliseRole(type), value);
  }
  if (type === 'function_call') {
    const call = toolCallOfObject(value);
    return { role: 'assistant', text: '', toolCalls: call === undefined ? undefined : [call] };
  }
  if (type === 'function_call_output')
    return { role: 'tool', text: contentText(value.output), toolResult: true };
  return undefined;
}

function messagesFromArray(items: readonly unknown[], depth: number): Message[] | undefined {
  if (items.length === 0) return undefined;
  // LangChain passes batches: `messages: [[...first prompt...]]`.
  if (Array.isArray(items[0])) return messagesFrom(items[0], depth + 1);
  const messages: Message[] = [];
  let sawParts = false;
  for (const item of items) {
    if (typeof item === 'string') {
      messages.push({ role: undefined, text: item });
    } else if (isRecord(item)) {
      const message = parseMessageObject(item);
      if (message !== undefined) messages.push(message);
      else if (typeof item.type === 'string') sawParts = true;
    }
  }
  if (messages.length === 0 && items.length === 1 && isRecord(items[0]) && !sawParts) {
    // `{ args: [{ question: "…" }] }`: dig into the one argument.
    return messagesFromRecord(items[0], depth + 1);
  }
  if (messages.length === 0 && sawParts) {
    // An array of content parts (e.g. `gen_ai.system_instructions`): one role-less text.
    return [{ role: undefined, text: contentText(items) }];
  }
  return messages.length > 0 ? messages : undefined;
}

/** Keys that hold the request/prompt side of a request-like object. */
function requestMessages(value: Record<string, unknown>, depth: number): Message[] | undefined {
  const out: Message[] = [];
  for (const key of ['system', 'instructions']) {
    const system = value[key];
    if (typeof system === 'string' && system !== '') out.push({ role: 'system', text: system });
    else if (Array.isArray(system)) out.push({ role: 'system', text: contentText(system) });
  }
  const before = out.length;
  for (const key of ['messages', 'prompt', 'input']) {
    const entry = value[key];
    if (entry === undefined || entry === null) continue;
    if (typeof entry === 'string') {
      out.push({ role: 'user', text: entry });
    } else {
      const nested = messagesFrom(entry, depth + 1);
      if (nested !== undefined) out.push(...nested);
    }
    if (out.length > before) break;
  }
  return out.length > before ? out : undefined;
}

/** Keys under which run inputs/outputs keep their one interesting value, in order of preference. */
const VALUE_KEYS = [
  'output',
  'outputs',
  'result',
  'response',
  'answer',
  'completion',
  'text',
  'content',
  'question',
  'query',
  'args',
];

function messagesFromRecord(value: Record<string, unknown>, depth: number): Message[] | undefined {
  const single = parseMessageObject(value);
  if (single !== undefined) return [single];
  if (Array.isArray(value.choices)) {
    const choices: Message[] = [];
    for (const choice of value.choices) {
      if (!isRecord(choice)) continue;
      if (isRecord(choice.message))
        choices.push(messageFromFields(normaliseRole(choice.message.role) ?? 'assistant', choice.message));
      else if (typeof choice.text === 'string') choices.push({ role: 'assistant', text: choice.text });
    }
    if (choices.length > 0) return choices;
  }
  if (Array.isArray(value.generations)) {
    const batch: unknown[] = Array.isArray(value.generations[0]) ? value.generations[0] : value.generations;
    const generations: Message[] = [];
    for (const generation of batch) {
      if (!isRecord(generation)) continue;
      const message = isRecord(generation.message) ? parseMessageObject(generation.message) : undefined;
      if (message !== undefined) generations.push({ ...message, role: message.role ?? 'assistant' });
      else if (typeof generation.text === 'string')
        generations.push({ role: 'assistant', text: generation.text });
    }
    if (generations.length > 0) return generations;
  }
  const request = requestMessages(value, depth);
  if (request !== undefined) return request;
  for (const key of VALUE_KEYS) {
    const entry = value[key];
    if (entry === undefined || entry === null) continue;
    const nested = messagesFrom(entry, depth + 1);
    if (nested !== undefined) return nested;
  }
  // `{ topic: "…" }`: the single string value is the input.
  let onlyString: string | undefined;
  let strings = 0;
  for (const key of Object.keys(value)) {
    const entry = value[key];
    if (typeof entry === 'string') {
      strings += 1;
      onlyString = entry;
    }
  }
  return strings === 1 && onlyString !== undefined ? [{ role: undefined, text: onlyString }] : undefined;
}

/**
 * Messages from an already-parsed value of any convention: an array of messages or parts, a
 * request (`{system, prompt, messages}`, `{model, messages}`, `{instructions, input}`), a response
 * (`choices`, `generations`, Responses `output`), run inputs/outputs (`{input}`, `{output}`,
 * `{args}`…), or a plain string. `undefined` when nothing message-like is found.
 */
export function messagesFrom(value: unknown, depth = 0): Message[] | undefined {
  if (depth > MAX_DEPTH || value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    if (value.trim() === '') return undefined;
    const parsed = depth < MAX_DEPTH ? parseJsonLoose(value) : undefined;
    if (parsed !== undefined && typeof parsed !== 'string') {
      return messagesFrom(parsed, depth + 1) ?? [{ role: undefined, text: value }];
    }
    return [{ role: undefined, text: typeof parsed === 'string' ? parsed : value }];
  }
  if (typeof value === 'number' || typeof value === 'boolean')
    return [{ role: undefined, text: String(value) }];
  if (Array.isArray(value)) return messagesFromArray(value, depth);
  if (isRecord(value)) return messagesFromRecord(value, depth);
  return undefined;
}

/**
 * Messages from an attribute or body value: a JSON string is parsed (once, by the caller's
 * cache), a non-JSON string is plain text, and a value that holds no recognisable message is
 * kept whole as text. Never throws.
 */
export function messagesFromValue(value: unknown): Message[] | undefined {
  try {
    const messages = messagesFrom(value);
    if (messages !== undefined) return messages;
    if (value === undefined || value === null || value === '') return undefined;
    const whole = boundedStringify(value);
    return whole === '' || whole === '{}' || whole === '[]' ? undefined : [{ role: undefined, text: whole }];
  } catch {
    return undefined;
  }
}
