/** A tool call requested by the model, with its arguments as text (JSON as produced). */
export interface ToolCall {
  name: string;
  arguments: string;
}

/**
 * The one internal shape every convention's messages are normalised into. `role` is `user`,
 * `system`, `assistant`, `tool` or another producer-given string; `undefined` when the source
 * carries no roles (a plain input string). `toolResult` marks a message that only returns tool
 * output (it is not what a person asked).
 */
export interface Message {
  role?: string | undefined;
  text: string;
  toolCalls?: ToolCall[] | undefined;
  toolResult?: boolean | undefined;
}

const ROLE_ALIASES: Record<string, string> = {
  human: 'user',
  user: 'user',
  ai: 'assistant',
  assistant: 'assistant',
  model: 'assistant',
  bot: 'assistant',
  system: 'system',
  developer: 'system',
  tool: 'tool',
  function: 'tool',
  ipython: 'tool',
};

/** Maps the roles of every convention (LangChain's `human`/`ai`, OpenAI's `developer`, …) to ours. */
export function normaliseRole(role: unknown): string | undefined {
  if (typeof role !== 'string' || role === '') return undefined;
  const lower = role.toLowerCase();
  return ROLE_ALIASES[lower] ?? lower;
}

/** `get_weather({"city":"Paris"})`, one call per line. */
export function renderToolCalls(calls: readonly ToolCall[]): string {
  return calls.map((call) => `${call.name}(${call.arguments})`).join('\n');
}

function hasText(message: Message): boolean {
  return message.text.trim() !== '';
}

/**
 * The prompt of an input: the last user message's text (system instructions and tool results
 * excluded); with no roles at all, the whole input text; else the last non-system text.
 */
export function promptTextOf(messages: readonly Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i]!;
    if (message.role === 'user' && !message.toolResult && hasText(message)) return message.text;
  }
  if (messages.every((message) => message.role === undefined)) {
    const whole = messages
      .filter(hasText)
      .map((message) => message.text)
      .join('\n');
    return whole === '' ? undefined : whole;
  }
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i]!;
    if (message.role !== 'system' && !message.toolResult && hasText(message)) return message.text;
  }
  return undefined;
}

/** A span's final answer: its text, and whether it is a text answer or only the tool calls it asked for. */
export interface Answer {
  text: string;
  /** The model asked for tools and said nothing (yet): a step of a loop, not a final answer. */
  toolCallsOnly: boolean;
}

/**
 * The final answer of an output: the last assistant (or role-less) message's text, or its tool
 * calls rendered readably (`toolCallsOnly`) when it has no text.
 */
export function answerOf(messages: readonly Message[]): Answer | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i]!;
    if (message.role === 'user' || message.role === 'system' || message.toolResult) continue;
    if (hasText(message)) return { text: message.text, toolCallsOnly: false };
    if (message.toolCalls !== undefined && message.toolCalls.length > 0)
      return { text: renderToolCalls(message.toolCalls), toolCallsOnly: true };
  }
  const last = messages.at(-1);
  return last !== undefined && hasText(last) ? { text: last.text, toolCallsOnly: false } : undefined;
}

/** The text of {@link answerOf}: the final answer's text, or its tool calls rendered. */
export function responseTextOf(messages: readonly Message[]): string | undefined {
  return answerOf(messages)?.text;
}
