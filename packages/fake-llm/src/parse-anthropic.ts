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
import { toolSpec } from './parse-openai-chat.js';
import type { FakeChatMessage } from './types.js';

/**
 * Parses a `POST /v1/messages` body. `max_tokens` is required, as by the real API, unless
 * `forCounting` (the token-counting route does not take it). @throws RequestError naming the bad field.
 */
export function parseAnthropic(body: unknown, forCounting = false): Conversation {
  if (!isRecord(body))
    throw new RequestError(`request body must be a JSON object, got ${describeValue(body)}`);
  const model = requiredString(body, 'model');
  const maxTokens = optionalPositiveInteger(body, 'max_tokens');
  if (maxTokens === undefined && !forCounting) {
    throw new RequestError(`max_tokens must be a positive integer, got ${describeValue(body.max_tokens)}`);
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new RequestError(`messages must be a non-empty array, got ${describeValue(body.messages)}`);
  }
  const messages: FakeChatMessage[] = [];
  const system = contentText(body.system);
  if (system !== '') messages.push({ role: 'system', content: system });
  const toolNamesById = new Map<string, string>();
  body.messages.forEach((message, i) => {
    messages.push(...anthropicMessage(message, i, toolNamesById));
  });
  const toolSpecs: ToolSpec[] = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    if (isRecord(tool) && typeof tool.name === 'string') {
      toolSpecs.push(toolSpec(tool.name, tool.description, tool.input_schema));
    }
  }
  return conversationOf({
    api: 'anthropic',
    model,
    messages,
    toolSpecs,
    stream: body.stream === true,
    toolChoice: anthropicToolChoice(body.tool_choice),
    maxTokens,
  });
}

/**
 * One Anthropic message as fake messages: its text first, then one `tool` message per `tool_result` block,
 * so that tool results count as following the user's words.
 */
function anthropicMessage(
  message: unknown,
  i: number,
  toolNamesById: Map<string, string>,
): FakeChatMessage[] {
  if (!isRecord(message) || typeof message.role !== 'string') {
    throw new RequestError(
      `messages[${i}] must be an object with a string role, got ${describeValue(message)}`,
    );
  }
  const { role, content } = message;
  if (!Array.isArray(content)) return [{ role, content: contentText(content) }];
  const texts: string[] = [];
  const toolResults: FakeChatMessage[] = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
      toolNamesById.set(block.id, block.name);
    }
    if (block.type === 'tool_result') {
      const name = typeof block.tool_use_id === 'string' ? toolNamesById.get(block.tool_use_id) : undefined;
      const resultText = contentText(block.content);
      toolResults.push(
        name === undefined
          ? { role: 'tool', content: resultText }
          : { role: 'tool', content: resultText, name },
      );
    }
  }
  const hasOnlyToolResults = texts.length === 0 && toolResults.length > 0;
  return hasOnlyToolResults ? toolResults : [{ role, content: texts.join('\n') }, ...toolResults];
}

function anthropicToolChoice(choice: unknown): ToolChoice {
  if (!isRecord(choice)) return { kind: 'auto' };
  if (choice.type === 'none') return { kind: 'none' };
  if (choice.type === 'any') return { kind: 'required' };
  if (choice.type === 'tool' && typeof choice.name === 'string') return { kind: 'named', name: choice.name };
  return { kind: 'auto' };
}
