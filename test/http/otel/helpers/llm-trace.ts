import { ROOT_CONTEXT, type Span, SpanKind, type Tracer, trace } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** A tracer provider (not registered globally) whose spans go to `processors`. */
export function providerWith(...processors: SpanProcessor[]): NodeTracerProvider {
  return new NodeTracerProvider({ spanProcessors: processors });
}

/** The GenAI semconv text of a message list, as instrumentations put it on a span. */
function messages(role: string, text: string): string {
  return JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
}

/**
 * Starts and ends a GenAI `chat` span (semconv attributes, 12 + 7 tokens) as a child of `parent`,
 * the model call every test trace carries.
 */
export function endChatSpan(tracer: Tracer, parent: Span, prompt: string, response: string): void {
  tracer
    .startSpan(
      'chat gpt-4o-mini',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.input.messages': messages('user', prompt),
          'gen_ai.output.messages': messages('assistant', response),
          'gen_ai.usage.input_tokens': 12,
          'gen_ai.usage.output_tokens': 7,
        },
      },
      trace.setSpan(ROOT_CONTEXT, parent),
    )
    .end();
}

/**
 * Creates and ends one two-span LLM trace, synchronously: an app span around a GenAI `chat` span
 * (child ends first, as in real code). Returns the trace id.
 */
export function endLlmTrace(tracer: Tracer, prompt: string, response: string): string {
  const root = tracer.startSpan('answer-question', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  endChatSpan(tracer, root, prompt, response);
  root.end();
  return root.spanContext().traceId;
}

/** Ends `count` LLM traces in one synchronous loop; returns their trace ids in order. */
export function endLlmTraces(tracer: Tracer, count: number, label: string): string[] {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    ids.push(endLlmTrace(tracer, `${label} question ${i}?`, `${label} answer ${i}.`));
  }
  return ids;
}
