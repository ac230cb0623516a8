import {
  type Conversation,
  contentText,
  conversationOf,
  describeValue,
  isRecord,
  optionalPositiveInteger,
  RequestError,
  requiredString,
  type ToolChoice,
  type ToolSpec,
} from './conversation.js';
import type { FakeChatMessage } from './types.js';

/** The options of a Chat Completions request that shape the answer but not the conversation. */
export interface ChatStreamOptions {
  includeUsage: boolean;
}

/** Parses a `POST /v1/chat/completions` body. @throws RequestError naming the bad field. */
export function parseOpenAiChat(body: unknown): {
  conversation: Conversation;
  streamOptions: ChatStreamOptions;
} {
  if (!isRecord(body))
    throw new RequestError(`request body must be a JSON object, got ${describeValue(body)}`);
  const model = requiredString(body, 'model');
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new RequestError(`messages must be a non-empty array, got ${describeValue(body.messages)}`);
  }
  const toolNamesByCallId = new Map<string, string>();
  const messages = body.messages.map((message, i) => chatMessage(message, i, toolNamesByCallId));
  const toolSpecs = chatTools(body);
  const maxTokens =
    optionalPositiveInteger(body, 'max_completion_tokens') ?? optionalPositiveInteger(body, 'max_tokens');
  const conversation = conversationOf({
    api: 'openai-chat',
    model,
    messages,
    toolSpecs,
    stream: body.stream === true,
    toolChoice: chatToolChoice(body.tool_choice ?? body.function_call),
    maxTokens,
  });
  const includeUsage = isRecord(body.stream_options) && body.stream_options.include_usage === true;
  return { conversation, streamOptions: { includeUsage } };
}

function chatMessage(message: unknown, i: number, toolNamesByCallId: Map<string, string>): FakeChatMessage {
  if (!isRecord(message) || typeof message.role !== 'string') {
    throw new RequestError(
      `messages[${i}] must be an object with a string role, got ${describeValue(message)}`,
    );
  }
  const content = contentText(message.content);
  if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (isRecord(call) && typeof call.id === 'string' && isRecord(call.function)) {
        const name = call.function.name;
        if (typeof name === 'string') toolNamesByCallId.set(call.id, name);
      }
    }
  }
  if (message.role === 'tool') {
    const name =
      typeof message.tool_call_id === 'string' ? toolNamesByCallId.get(message.tool_call_id) : undefined;
    return name === undefined ? { role: 'tool', content } : { role: 'tool', content, name };
  }
  // Legacy `functions` API: a function result carries its name.
  if (message.role === 'function') {
    return typeof message.name === 'string'
      ? { role: 'tool', content, name: message.name }
      : { role: 'tool', content };
  }
  return { role: message.role === 'developer' ? 'system' : message.role, content };
}

function chatTools(body: Record<string, unknown>): ToolSpec[] {
  const specs: ToolSpec[] = [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const tool of tools) {
    const fn = isRecord(tool) ? tool.function : undefined;
    if (isRecord(fn) && typeof fn.name === 'string')
      specs.push(toolSpec(fn.name, fn.description, fn.parameters));
  }
  const functions = Array.isArray(body.functions) ? body.functions : [];
  for (const fn of functions) {
    if (isRecord(fn) && typeof fn.name === 'string')
      specs.push(toolSpec(fn.name, fn.description, fn.parameters));
  }
  return specs;
}

/** A tool spec with the optional fields only when present. */
export function toolSpec(name: string, description: unknown, schema: unknown): ToolSpec {
  const spec: ToolSpec = { name };
  if (typeof description === 'string') spec.description = description;
  if (schema !== undefined) spec.schema = schema;
  return spec;
}

function chatToolChoice(choice: unknown): ToolChoice {
  if (choice === 'none') return { kind: 'none' };
  if (choice === 'required') return { kind: 'required' };
  if (isRecord(choice)) {
    const fn = isRecord(choice.function) ? choice.function : choice;
    if (typeof fn.name === 'string') return { kind: 'named', name: fn.name };
  }
  return { kind: 'auto' };
}
