import { boundedStringify, isRecord } from './json.js';
import type { ToolCall } from './messages.js';

/** Part types that carry no answer text (model reasoning, media, tool requests). */
const SILENT_PART_TYPES = new Set([
  'reasoning',
  'thinking',
  'redacted_thinking',
  'tool_call',
  'tool-call',
  'tool_use',
  'function_call',
  'server_tool_call',
  'image',
  'image_url',
  'input_image',
  'audio',
  'input_audio',
  'file',
  'input_file',
  'blob',
  'uri',
]);
/** Part types whose content is a tool's output. */
const TOOL_RESULT_PART_TYPES = new Set([
  'tool_call_response',
  'tool-result',
  'tool_result',
  'server_tool_call_response',
  'function_call_output',
]);

/** Text of a tool's output, whatever shape it came in (AI SDK `{type, value}`, string, JSON). */
function toolOutputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output) && 'value' in output && typeof output.type === 'string')
    return toolOutputText(output.value);
  if (output === undefined || output === null) return '';
  return boundedStringify(output);
}

/** Whether a content part is a tool result (so its message is not a person's input). */
export function isToolResultPart(part: unknown): boolean {
  return isRecord(part) && typeof part.type === 'string' && TOOL_RESULT_PART_TYPES.has(part.type);
}

function partText(part: unknown, depth: number): string {
  if (typeof part === 'string') return part;
  if (!isRecord(part)) return '';
  const type = typeof part.type === 'string' ? part.type : undefined;
  if (type !== undefined) {
    if (TOOL_RESULT_PART_TYPES.has(type)) {
      return toolOutputText(part.response ?? part.result ?? part.output ?? part.content);
    }
    if (SILENT_PART_TYPES.has(type)) return '';
    if (type === 'refusal' && typeof part.refusal === 'string') return part.refusal;
  }
  if (typeof part.text === 'string') return part.text;
  // OpenAI Assistants-style `{ text: { value } }`.
  if (isRecord(part.text) && typeof part.text.value === 'string') return part.text.value;
  if (typeof part.content === 'string') return part.content;
  if (depth < 4 && Array.isArray(part.content)) return contentText(part.content, depth + 1);
  return '';
}

/**
 * The text of a message's content in any convention: a string, an array of parts (`text`,
 * `output_text`, semconv `{type:'text', content}`, tool results), or a single part.
 */
export function contentText(content: unknown, depth = 0): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let out = '';
    for (const part of content) {
      const text = partText(part, depth);
      if (text === '') continue;
      out = out === '' ? text : `${out}\n${text}`;
    }
    return out;
  }
  return partText(content, depth);
}

/** Arguments as text: strings as they are (usually JSON already), anything else as JSON. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return boundedStringify(value);
}

function toolCallOf(entry: unknown): ToolCall | undefined {
  if (!isRecord(entry)) return undefined;
  // OpenAI `{ function: { name, arguments } }`.
  if (isRecord(entry.function)) {
    const name = entry.function.name;
    if (typeof name === 'string') return { name, arguments: argumentsText(entry.function.arguments) };
  }
  const name = entry.name ?? entry.toolName;
  if (typeof name !== 'string') return undefined;
  return { name, arguments: argumentsText(entry.arguments ?? entry.args ?? entry.input) };
}

const TOOL_CALL_PART_TYPES = new Set(['tool_call', 'tool-call', 'tool_use', 'function_call']);

/** Tool calls from content parts (`tool_call`, AI SDK `tool-call`, Anthropic `tool_use`). */
export function toolCallsOfParts(parts: unknown): ToolCall[] {
  if (!Array.isArray(parts)) return [];
  const calls: ToolCall[] = [];
  for (const part of parts) {
    if (isRecord(part) && typeof part.type === 'string' && TOOL_CALL_PART_TYPES.has(part.type)) {
      const call = toolCallOf(part);
      if (call !== undefined) calls.push(call);
    }
  }
  return calls;
}

/** Tool calls from a list such as OpenAI `tool_calls`, LangChain `tool_calls` or AI SDK `toolCalls`. */
export function toolCallsOfList(list: unknown): ToolCall[] {
  if (!Array.isArray(list)) return [];
  const calls: ToolCall[] = [];
  for (const entry of list) {
    const call = toolCallOf(entry);
    if (call !== undefined) calls.push(call);
  }
  return calls;
}

/** A single tool call object, e.g. OpenAI's legacy `function_call`. */
export function toolCallOfObject(entry: unknown): ToolCall | undefined {
  return toolCallOf(entry);
}
