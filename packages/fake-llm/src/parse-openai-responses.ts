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

/** Parses a `POST /v1/responses` body. @throws RequestError naming the bad field. */
export function parseOpenAiResponses(body: unknown): Conversation {
  if (!isRecord(body))
    throw new RequestError(`request body must be a JSON object, got ${describeValue(body)}`);
  const model = requiredString(body, 'model');
  const messages: FakeChatMessage[] = [];
  if (typeof body.instructions === 'string' && body.instructions !== '') {
    messages.push({ role: 'system', content: body.instructions });
  }
  const input = body.input;
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
  } else if (Array.isArray(input)) {
    const toolNamesByCallId = new Map<string, string>();
    input.forEach((item, i) => {
      const message = inputItem(item, i, toolNamesByCallId);
      if (message !== undefined) messages.push(message);
    });
  } else {
    throw new RequestError(`input must be a string or an array of input items, got ${describeValue(input)}`);
  }
  const toolSpecs: ToolSpec[] = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    if (isRecord(tool) && tool.type === 'function' && typeof tool.name === 'string') {
      toolSpecs.push(toolSpec(tool.name, tool.description, tool.parameters));
    }
  }
  return conversationOf({
    api: 'openai-responses',
    model,
    messages,
    toolSpecs,
    stream: body.stream === true,
    toolChoice: responsesToolChoice(body.tool_choice),
    maxTokens: optionalPositiveInteger(body, 'max_output_tokens'),
  });
}

function inputItem(
  item: unknown,
  i: number,
  toolNamesByCallId: Map<string, string>,
): FakeChatMessage | undefined {
  if (!isRecord(item)) throw new RequestError(`input[${i}] must be an object, got ${describeValue(item)}`);
  if (item.type === 'function_call') {
    if (typeof item.call_id === 'string' && typeof item.name === 'string')
      toolNamesByCallId.set(item.call_id, item.name);
    return { role: 'assistant', content: '' };
  }
  if (item.type === 'function_call_output') {
    const content = typeof item.output === 'string' ? item.output : contentText(item.output);
    const name = typeof item.call_id === 'string' ? toolNamesByCallId.get(item.call_id) : undefined;
    return name === undefined ? { role: 'tool', content } : { role: 'tool', content, name };
  }
  if ((item.type === undefined || item.type === 'message') && typeof item.role === 'string') {
    const role = item.role === 'developer' ? 'system' : item.role;
    return { role, content: contentText(item.content) };
  }
  // Reasoning items, web search calls and the like carry no conversation text.
  return undefined;
}

function responsesToolChoice(choice: unknown): ToolChoice {
  if (choice === 'none') return { kind: 'none' };
  if (choice === 'required') return { kind: 'required' };
  if (isRecord(choice) && choice.type === 'function' && typeof choice.name === 'string') {
    return { kind: 'named', name: choice.name };
  }
  return { kind: 'auto' };
}
