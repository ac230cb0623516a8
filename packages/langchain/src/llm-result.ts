/**
 * What an LLM or chat model run produced, read from LangChain's `LLMResult`: the output
 * messages, why generation stopped, token usage and the model that answered.
 */
import {
  contentText,
  finishReasonOf,
  type GenAiOutputMessage,
  type GenAiPart,
  toolCallPart,
} from './genai-messages.js';
import { isObject, nonEmptyString, viewMessage } from './message-view.js';
import { truncateText } from './safe-json.js';

/** Token counts of a model call. */
export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** The mapped outcome of a model run. */
export interface LlmOutcome {
  messages: GenAiOutputMessage[];
  finishReasons: string[];
  usage: TokenUsage;
  responseModel?: string;
  responseId?: string;
}

type Obj = Record<string, unknown>;

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

function sum(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : a + b;
}

/** Usage from `llmOutput` under the first of `keys` that holds counts. */
function usageFromLlmOutput(llmOutput: Obj | undefined, keys: readonly string[]): TokenUsage | undefined {
  if (llmOutput === undefined) return undefined;
  for (const key of keys) {
    const usage = llmOutput[key];
    if (!isObject(usage)) continue;
    const inputTokens = count(usage.promptTokens) ?? count(usage.input_tokens) ?? count(usage.prompt_tokens);
    const outputTokens =
      count(usage.completionTokens) ?? count(usage.output_tokens) ?? count(usage.completion_tokens);
    if (inputTokens !== undefined || outputTokens !== undefined) return { inputTokens, outputTokens };
  }
  return undefined;
}

/** Flattens `generations` (one list per prompt) defensively: LangChain hands over `[[undefined]]` for an empty stream. */
function generationsOf(output: unknown): Obj[] {
  const lists = isObject(output) && Array.isArray(output.generations) ? output.generations : [];
  return lists.flatMap((list: unknown) => (Array.isArray(list) ? list.filter(isObject) : []));
}

/**
 * Maps an `LLMResult`. `streamedText` is what `handleLLMNewToken` delivered (already capped); it
 * stands in for the answer when the final result carries no text and no tool call.
 *
 * @example
 * const outcome = llmOutcome(result, '', 32768);
 * outcome.usage.inputTokens;
 */
export function llmOutcome(output: unknown, streamedText: string, maxChars: number): LlmOutcome {
  const llmOutput = isObject(output) && isObject(output.llmOutput) ? output.llmOutput : undefined;
  const messages: GenAiOutputMessage[] = [];
  const finishReasons: string[] = [];
  let messageUsage: TokenUsage | undefined;
  let responseModel: string | undefined;
  let responseId: string | undefined;
  for (const generation of generationsOf(output)) {
    const view = viewMessage(generation.message);
    const info = isObject(generation.generationInfo) ? generation.generationInfo : undefined;
    const parts: GenAiPart[] = [];
    const text = view !== undefined ? contentText(view.content, maxChars) : '';
    const fallback = typeof generation.text === 'string' ? truncateText(generation.text, maxChars) : '';
    if (text !== '' || fallback !== '') parts.push({ type: 'text', content: text !== '' ? text : fallback });
    for (const call of view?.toolCalls ?? []) parts.push(toolCallPart(call, maxChars));
    const finish =
      finishReasonOf(info) ??
      finishReasonOf(view?.responseMetadata) ??
      (view !== undefined && view.toolCalls.length > 0 ? 'tool_call' : 'stop');
    messages.push({ role: 'assistant', parts, finish_reason: finish });
    finishReasons.push(finish);
    const usage = view?.usageMetadata;
    if (usage !== undefined) {
      messageUsage = {
        inputTokens: sum(messageUsage?.inputTokens, count(usage.input_tokens)),
        outputTokens: sum(messageUsage?.outputTokens, count(usage.output_tokens)),
      };
    }
    const meta = view?.responseMetadata;
    responseModel ??= nonEmptyString(meta?.model_name) ?? nonEmptyString(meta?.model);
    responseId ??= nonEmptyString(meta?.id);
  }
  if (streamedText !== '' && messages.every((message) => message.parts.length === 0)) {
    const text: GenAiPart = { type: 'text', content: streamedText };
    if (messages.length === 0) {
      messages.push({ role: 'assistant', parts: [text], finish_reason: 'stop' });
      finishReasons.push('stop');
    } else (messages[0] as GenAiOutputMessage).parts.push(text);
  }
  // Reported counts (`tokenUsage`, Anthropic-style `usage`, the messages' `usage_metadata`) win over LangChain's estimate.
  const usage =
    usageFromLlmOutput(llmOutput, ['tokenUsage', 'usage']) ??
    messageUsage ??
    usageFromLlmOutput(llmOutput, ['estimatedTokenUsage']);
  return {
    messages,
    finishReasons,
    usage: usage ?? {},
    responseModel: responseModel ?? nonEmptyString(llmOutput?.model_name) ?? nonEmptyString(llmOutput?.model),
    responseId: responseId ?? nonEmptyString(llmOutput?.id),
  };
}
