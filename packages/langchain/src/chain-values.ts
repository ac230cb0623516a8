/**
 * Chain inputs and outputs as GenAI messages. A chain's values are whatever its runnable takes
 * and returns: a dict of variables, a string, a message, a message list or a prompt value.
 */
import {
  finishReasonOf,
  type GenAiMessage,
  type GenAiOutputMessage,
  type GenAiPart,
  partsOf,
  textMessage,
  toGenAiMessage,
} from './genai-messages.js';
import { isMessageList, isObject, viewMessage } from './message-view.js';
import { safeStringify, truncateText } from './safe-json.js';

/** Keys whose value is the user's input when a chain takes several variables. */
const INPUT_KEYS = ['input', 'question', 'query', 'messages'] as const;
/** Keys whose value is the answer when a chain returns several values. */
const OUTPUT_KEYS = ['output', 'answer', 'result', 'text', 'messages'] as const;

/** The messages of a prompt value (`ChatPromptValue`, `StringPromptValue`), live or serialised. */
function promptValueMessages(value: unknown): unknown[] | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.toChatMessages === 'function') {
    try {
      const messages: unknown = (value.toChatMessages as () => unknown).call(value);
      return Array.isArray(messages) ? messages : undefined;
    } catch {
      return undefined;
    }
  }
  const id = value.id;
  if (
    value.lc === 1 &&
    Array.isArray(id) &&
    id[id.length - 1] === 'ChatPromptValue' &&
    isObject(value.kwargs)
  ) {
    const messages = value.kwargs.messages;
    return Array.isArray(messages) ? messages : undefined;
  }
  return undefined;
}

/** The one value that stands for a dict of chain values, or the dict itself. */
function mainValue(values: unknown, preferredKeys: readonly string[]): unknown {
  if (!isObject(values) || viewMessage(values) !== undefined || promptValueMessages(values) !== undefined) {
    return values;
  }
  const keys = Object.keys(values);
  if (keys.length === 1) return values[keys[0] as string];
  for (const key of preferredKeys) if (values[key] !== undefined) return values[key];
  return values;
}

/** The chat messages a value holds, if it holds any. */
function messagesIn(value: unknown): unknown[] | undefined {
  const fromPrompt = promptValueMessages(value);
  if (fromPrompt !== undefined) return fromPrompt;
  if (isMessageList(value)) return value;
  return viewMessage(value) !== undefined ? [value] : undefined;
}

/**
 * The input messages of a chain run: the single string variable (or `input`/`question`/`query`)
 * as a user message, messages as they are, anything else as JSON text.
 *
 * @example
 * chainInputMessages({ question: 'Hi?', lang: 'en' }, 1000); // [{ role: 'user', parts: [{ type: 'text', content: 'Hi?' }] }]
 */
export function chainInputMessages(inputs: unknown, maxChars: number): GenAiMessage[] {
  const value = mainValue(inputs, INPUT_KEYS);
  if (typeof value === 'string') return [textMessage('user', value, maxChars)];
  const messages = messagesIn(value);
  if (messages !== undefined) {
    return messages.flatMap((message) => toGenAiMessage(message, maxChars) ?? []);
  }
  return [textMessage('user', safeStringify(value, maxChars), maxChars)];
}

/**
 * The output message of a chain run: a string answer, the last message of a message list, or
 * anything else as JSON text, always as the assistant's.
 *
 * @example
 * chainOutputMessages({ output: 'Sunny' }, 1000); // [{ role: 'assistant', parts: [...], finish_reason: 'stop' }]
 */
export function chainOutputMessages(outputs: unknown, maxChars: number): GenAiOutputMessage[] {
  const value = mainValue(outputs, OUTPUT_KEYS);
  if (typeof value === 'string') {
    return [
      {
        role: 'assistant',
        parts: [{ type: 'text', content: truncateText(value, maxChars) }],
        finish_reason: 'stop',
      },
    ];
  }
  const messages = messagesIn(value);
  const last = messages === undefined ? undefined : viewMessage(messages[messages.length - 1]);
  if (last !== undefined) {
    const parts: GenAiPart[] = partsOf(last, maxChars);
    const finish =
      finishReasonOf(last.responseMetadata) ?? (last.toolCalls.length > 0 ? 'tool_call' : 'stop');
    return [{ role: 'assistant', parts, finish_reason: finish }];
  }
  return [
    {
      role: 'assistant',
      parts: [{ type: 'text', content: safeStringify(value, maxChars) }],
      finish_reason: 'stop',
    },
  ];
}
