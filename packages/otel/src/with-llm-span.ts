import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { describeValue } from './option-checks.js';

/** A message of a chat prompt. */
export interface LlmPromptMessage {
  role: string;
  content: string;
}

/** What {@link withLlmSpan} records about the call before it runs. */
export interface LlmSpanOptions {
  /** Span name. Default `chat {model}`, as the GenAI semantic conventions name chat spans. */
  name?: string;
  /** The model requested (`gen_ai.request.model`). */
  model: string;
  /** The provider (`gen_ai.provider.name`), e.g. `openai`. */
  provider: string;
  /** The user's input: a text, or the chat messages sent. */
  prompt: string | readonly LlmPromptMessage[];
}

/** Token counts of the call. */
export interface LlmUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** The span handed to the callback of {@link withLlmSpan}, with setters for the outcome of the call. */
export interface LlmSpan {
  /** The underlying OpenTelemetry span, for anything else (attributes, events). */
  readonly span: Span;
  /** Records the model's answer (`gen_ai.output.messages`) and why it finished (default `stop`). */
  setResponse(text: string, finishReason?: string): LlmSpan;
  /** Records token usage (`gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`). */
  setUsage(usage: LlmUsage): LlmSpan;
  /** Records the model that answered (`gen_ai.response.model`). */
  setModel(responseModel: string): LlmSpan;
}

function requireString(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`Expected \`${name}\` to be a non-empty string, got ${describeValue(value)}`);
  }
  return value;
}

function inputMessages(prompt: unknown): string {
  if (typeof prompt === 'string') {
    return JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]);
  }
  if (!Array.isArray(prompt)) {
    throw new TypeError(
      `Expected \`prompt\` to be a string or an array of { role, content } messages, got ${describeValue(prompt)}`,
    );
  }
  return JSON.stringify(
    prompt.map((message: unknown, index) => {
      const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
      if (typeof role !== 'string' || typeof content !== 'string') {
        throw new TypeError(
          `Expected \`prompt[${index}]\` to be a { role: string, content: string } message, got ${describeValue(message)}`,
        );
      }
      return { role, parts: [{ type: 'text', content }] };
    }),
  );
}

function llmSpan(span: Span): LlmSpan {
  const handle: LlmSpan = {
    span,
    setResponse(text, finishReason = 'stop') {
      span.setAttribute(
        'gen_ai.output.messages',
        JSON.stringify([
          {
            role: 'assistant',
            parts: [{ type: 'text', content: String(text) }],
            finish_reason: finishReason,
          },
        ]),
      );
      span.setAttribute('gen_ai.response.finish_reasons', [finishReason]);
      return handle;
    },
    setUsage(usage) {
      if (typeof usage?.inputTokens === 'number')
        span.setAttribute('gen_ai.usage.input_tokens', usage.inputTokens);
      if (typeof usage?.outputTokens === 'number')
        span.setAttribute('gen_ai.usage.output_tokens', usage.outputTokens);
      return handle;
    },
    setModel(responseModel) {
      if (typeof responseModel === 'string' && responseModel !== '') {
        span.setAttribute('gen_ai.response.model', responseModel);
      }
      return handle;
    },
  };
  return handle;
}

/**
 * Runs a hand-written LLM call inside an active CLIENT span carrying the GenAI semantic
 * convention attributes, so the call becomes a prompt/response trace. An error thrown by `fn` is
 * recorded on the span (exception, ERROR status, `error.type`) and rethrown; the span always ends.
 * Returns what `fn` returns. Rejects with a `TypeError` naming the field when an option is invalid.
 *
 * @example
 * const answer = await withLlmSpan({ model: 'gpt-4o', provider: 'openai', prompt: question }, async (span) => {
 *   const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: question }] });
 *   const text = completion.choices[0]?.message.content ?? '';
 *   span.setResponse(text).setUsage({ inputTokens: completion.usage?.prompt_tokens, outputTokens: completion.usage?.completion_tokens });
 *   return text;
 * });
 */
export async function withLlmSpan<T>(
  options: LlmSpanOptions,
  fn: (span: LlmSpan) => Promise<T> | T,
): Promise<T> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected the options to be an object, got ${describeValue(options)}`);
  }
  const model = requireString('model', options.model);
  const provider = requireString('provider', options.provider);
  const messages = inputMessages(options.prompt);
  const name = options.name === undefined ? `chat ${model}` : requireString('name', options.name);
  if (typeof fn !== 'function')
    throw new TypeError(`Expected \`fn\` to be a function, got ${describeValue(fn)}`);

  const tracer = trace.getTracer('@aqm/otel');
  const attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': model,
    'gen_ai.provider.name': provider,
    'gen_ai.input.messages': messages,
  };
  return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await fn(llmSpan(span));
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      span.recordException(err);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
      span.setAttribute(
        'error.type',
        err.name && err.name !== 'Error' ? err.name : (err.constructor?.name ?? '_OTHER'),
      );
      throw error;
    } finally {
      span.end();
    }
  });
}
