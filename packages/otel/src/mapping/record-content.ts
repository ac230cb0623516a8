import { ask } from './conventions/ask.js';
import { READER_ORDER } from './conventions/registry.js';
import type { ConventionReader } from './conventions/types.js';
import { promptTextOf, responseTextOf } from './messages.js';
import type { SpanView } from './span-view.js';
import type { TraceStructure } from './trace-structure.js';

type Side = 'prompt' | 'response';

/** The first convention's text for one side of a span (messages reduced to the prompt or the answer). */
function sideText(view: SpanView, side: Side): string | undefined {
  return view.memo(side === 'prompt' ? 'text:prompt' : 'text:response', () => {
    for (const reader of READER_ORDER.content) {
      const messages = ask(reader, side, view);
      if (messages === undefined || messages.length === 0) continue;
      const text = side === 'prompt' ? promptTextOf(messages) : responseTextOf(messages);
      if (text !== undefined) return text;
    }
    return undefined;
  });
}

/** The prompt of a span (last user message, or its whole input text). */
export function promptOf(view: SpanView): string | undefined {
  return sideText(view, 'prompt');
}

/** The final answer of a span (last assistant message, or its tool calls). */
export function responseOf(view: SpanView): string | undefined {
  return sideText(view, 'response');
}

/** Model calls, latest-ending first: the one that produced the final answer leads. */
function latestFirst(trace: TraceStructure): SpanView[] {
  return [...trace.modelCalls].sort((a, b) => b.endMs - a.endMs);
}

/** The trace's response: the top-level interaction's final answer, else the latest-ending model call's. */
export function traceResponse(trace: TraceStructure): string {
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
