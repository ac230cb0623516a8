import { ask } from './conventions/ask.js';
import { READER_ORDER } from './conventions/registry.js';
import type { ConventionReader } from './conventions/types.js';
import { type Answer, answerOf, promptTextOf } from './messages.js';
import type { SpanView } from './span-view.js';
import type { TraceStructure } from './trace-structure.js';

/** The first convention's prompt text of a span (its messages reduced to what the user asked). */
export function promptOf(view: SpanView): string | undefined {
  return view.memo('text:prompt', () => {
    for (const reader of READER_ORDER.content) {
      const messages = ask(reader, 'prompt', view);
      if (messages === undefined || messages.length === 0) continue;
      const text = promptTextOf(messages);
      if (text !== undefined) return text;
    }
    return undefined;
  });
}

/** The first convention's final answer of a span: text, or only the tool calls it asked for. */
export function spanAnswerOf(view: SpanView): Answer | undefined {
  return view.memo('answer', () => {
    for (const reader of READER_ORDER.content) {
      const messages = ask(reader, 'response', view);
      if (messages === undefined || messages.length === 0) continue;
      const answer = answerOf(messages);
      if (answer !== undefined) return answer;
    }
    return undefined;
  });
}

/** The final answer of a span (last assistant message, or its tool calls). */
export function responseOf(view: SpanView): string | undefined {
  return spanAnswerOf(view)?.text;
}

/** A span's answer when it is text, not only tool calls. */
function textAnswerOf(view: SpanView): string | undefined {
  const answer = spanAnswerOf(view);
  return answer === undefined || answer.toolCallsOnly ? undefined : answer.text;
}

/** Model calls, latest-ending first: the one that produced the final answer leads. */
function latestFirst(trace: TraceStructure): SpanView[] {
  return [...trace.modelCalls].sort((a, b) => b.endMs - a.endMs);
}

/** What the user asked the first model call that has a prompt (the top-level one first). */
function firstQuestion(trace: TraceStructure): string | undefined {
  for (const view of [trace.top, ...trace.modelCalls]) {
    const prompt = promptOf(view);
    if (prompt !== undefined) return prompt;
  }
  return undefined;
}

/**
 * The last text answer of the model calls: the latest-ending one. With no chain or agent at the
 * top (model calls side by side, bare or under the app's span or a generic wrapper), the
 * latest-ending one asked the same question as the top-level call comes first: a tool loop sends
 * the question again with the tool's result, so its calls share it, while unrelated calls in one
 * request (summarise, then title) keep the answer paired with the record's prompt. Under a chain
 * or agent, every call is a step of its one interaction.
 */
function lastTextAnswer(trace: TraceStructure): string | undefined {
  const question = trace.roles.get(trace.top) === 'llm' ? firstQuestion(trace) : undefined;
  let latest: string | undefined;
  for (const view of latestFirst(trace)) {
    const text = textAnswerOf(view);
    if (text === undefined) continue;
    if (question === undefined || promptOf(view) === question) return text;
    latest ??= text;
  }
  return latest;
}

/**
 * The trace's response: the last **text** answer of the interaction, whatever wraps its model
 * calls (nothing, the app's span, a generic wrapper, a chain or agent).
 *
 * 1. A chain or agent at the top whose own output is text: that output (it is the final answer,
 *    after any tool loop and post-processing).
 * 2. Else the latest-ending model call whose answer is text (see {@link lastTextAnswer}): in an
 *    app-run tool loop, the call after the tool, never the first call's tool call. Nested model
 *    calls (a LangChain chat run around the client's call) carry the same answer twice.
 * 3. Else, when the model only ever asked for tools, those calls as `name(arguments)` (the trace
 *    ends on a tool call): the top-level span's, else the latest-ending model call's.
 */
export function traceResponse(trace: TraceStructure): string {
  if (trace.roles.get(trace.top) === 'top') {
    const own = textAnswerOf(trace.top);
    if (own !== undefined) return own;
  }
  const text = lastTextAnswer(trace);
  if (text !== undefined) return text;
  let response = responseOf(trace.top);
  if (response === undefined) {
    for (const view of latestFirst(trace)) {
      response = responseOf(view);
      if (response !== undefined) break;
    }
  }
  return response ?? '';
}

function firstAnswer(
  views: readonly SpanView[],
  readers: readonly ConventionReader[],
  question: 'model' | 'provider',
): string | undefined {
  for (const view of views) {
    for (const reader of readers) {
      const value = ask(reader, question, view);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** The first convention's model name on one span. */
export function spanModelOf(view: SpanView): string | undefined {
  return firstAnswer([view], READER_ORDER.model, 'model');
}

/**
 * Model and provider: from the model calls (latest-ending first, as its model gave the answer),
 * else the top-level span, else any span. Provider values are kept as given (e.g. `openai`).
 */
export function modelAndProvider(trace: TraceStructure): { model?: string; provider?: string } {
  const order = [...latestFirst(trace), ...trace.topFirst];
  return {
    model: firstAnswer(order, READER_ORDER.model, 'model'),
    provider: firstAnswer(order, READER_ORDER.provider, 'provider'),
  };
}
