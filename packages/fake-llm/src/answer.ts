import type { Conversation, ToolSpec } from './conversation.js';
import { isRecord } from './conversation.js';
import { lastUserIndex, toolResultsAfterLastUser } from './respond-rules.js';
import { countWords, firstWords, plainWords } from './text.js';
import type { FakeChatRequest } from './types.js';

/** A tool call the fake decided to make. */
export interface ToolCallAnswer {
  kind: 'tool_call';
  name: string;
  input: Record<string, string>;
  /** `input` as the JSON text OpenAI carries in `arguments`. */
  argumentsJson: string;
}

/** Text the fake answers with; `truncated` when the client's token cap cut it. */
export interface TextAnswer {
  kind: 'text';
  text: string;
  truncated: boolean;
}

/** What the model "says", with the usage the APIs report. */
export type ModelAnswer = (TextAnswer | ToolCallAnswer) & { promptTokens: number; completionTokens: number };

/** The text `respond` produced was unusable (it threw or returned a non-string). */
export class RespondError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RespondError';
  }
}

/**
 * Decides the answer: a tool call while tools are offered and no tool result follows the last user message
 * (unless the client forbids tools), else the text of `respond`, cut to the client's token cap.
 */
export function decideAnswer(
  conversation: Conversation,
  respond: (request: FakeChatRequest) => string,
): ModelAnswer {
  const { request } = conversation;
  const promptTokens = request.messages.reduce((sum, message) => sum + countWords(message.content), 0);
  const toolCall = decideToolCall(conversation);
  if (toolCall !== undefined) {
    return {
      ...toolCall,
      promptTokens,
      completionTokens: countWords(`${toolCall.name} ${toolCall.argumentsJson}`),
    };
  }
  let text: unknown;
  try {
    text = respond(request);
  } catch (error) {
    throw new RespondError(`respond threw: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof text !== 'string') {
    throw new RespondError(`respond must return a string, got ${text === null ? 'null' : typeof text}`);
  }
  const cap = conversation.maxTokens;
  const truncated = cap !== undefined && countWords(text) > cap;
  const finalText = truncated ? firstWords(text, cap) : text;
  return { kind: 'text', text: finalText, truncated, promptTokens, completionTokens: countWords(finalText) };
}

function decideToolCall(conversation: Conversation): ToolCallAnswer | undefined {
  const { request, toolSpecs, toolChoice } = conversation;
  if (toolSpecs.length === 0 || toolChoice.kind === 'none') return undefined;
  if (toolResultsAfterLastUser(request.messages).length > 0) return undefined;
  const userIndex = lastUserIndex(request.messages);
  const prompt = userIndex === -1 ? '' : (request.messages[userIndex]?.content ?? '');
  const named =
    toolChoice.kind === 'named' ? toolSpecs.find((tool) => tool.name === toolChoice.name) : undefined;
  const tool = named ?? pickTool(toolSpecs, prompt);
  const input = toolInput(tool, prompt);
  return { kind: 'tool_call', name: tool.name, input, argumentsJson: JSON.stringify(input) };
}

/** The first tool named in the prompt, else the first tool whose name has a word in the prompt, else the first. */
function pickTool(tools: readonly ToolSpec[], prompt: string): ToolSpec {
  const lowerPrompt = prompt.toLowerCase();
  const promptWords = new Set(plainWords(lowerPrompt));
  const byName = tools.find((tool) => lowerPrompt.includes(tool.name.toLowerCase()));
  if (byName !== undefined) return byName;
  const byWord = tools.find((tool) => nameWords(tool.name).some((word) => promptWords.has(word)));
  return byWord ?? (tools[0] as ToolSpec);
}

/** `get_current_weather` / `getCurrentWeather` / `get-current-weather` → `get`, `current`, `weather`. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3);
}

/** Each required string property of the tool's schema set to the prompt, else `{ query: prompt }`. */
function toolInput(tool: ToolSpec, prompt: string): Record<string, string> {
  const schema = tool.schema;
  if (!isRecord(schema) || !Array.isArray(schema.required) || !isRecord(schema.properties))
    return { query: prompt };
  const properties = schema.properties;
  const input: Record<string, string> = {};
  for (const key of schema.required) {
    if (typeof key !== 'string') continue;
    const property = properties[key];
    if (isRecord(property) && isStringType(property.type)) input[key] = prompt;
  }
  return Object.keys(input).length === 0 ? { query: prompt } : input;
}

function isStringType(type: unknown): boolean {
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}
