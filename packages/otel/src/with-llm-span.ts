import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { aqmDiag } from './diag.js';
import { ThrottledReporter } from './export/throttled-reporter.js';
import { describeValue } from './option-checks.js';
import { type AqmAttributes, checkTraceAttributes } from './trace-attributes/check.js';
import {
  aqmSpanAttributes,
  mergeTraceAttributes,
  TRACE_ATTRIBUTES_KEY,
  traceAttributesIn,
} from './trace-attributes/values.js';

/** A message of a chat prompt. */
export interface LlmPromptMessage {
  role: string;
  content: string;
}

/**
 * What {@link withLlmSpan} records about the call before it runs. Each field may be missing (say
 * read from an unset environment variable): it is then left off the span, and the call still runs.
 * `userId`, `sessionId`, `metadata` and `tags` (see {@link AqmAttributes}) are checked: a wrong
 * type rejects with a `TypeError` naming the field, before the call.
 */
export interface LlmSpanOptions extends AqmAttributes {
  /** Span name. Default `chat {model}`, as the GenAI semantic conventions name chat spans. */
  name?: string | undefined;
  /** The model requested (`gen_ai.request.model`). */
  model: string | undefined;
  /** The provider (`gen_ai.provider.name`), e.g. `openai`. */
  provider: string | undefined;
  /** The user's input: a text, or the chat messages sent. */
  prompt: string | readonly LlmPromptMessage[] | undefined;
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

/** Bad span fields are said at most once a minute per field: a hot path must not flood `diag`. */
const notes = new ThrottledReporter(aqmDiag, 60_000);

/** Says a field was left off the span, and why; the call itself goes ahead. */
function dropField(name: string, problem: string): undefined {
  notes.report(`withLlmSpan:${name}`, 'warn', `withLlmSpan: \`${name}\` left off the span: ${problem}`);
  return undefined;
}

function optionalString(name: string, value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  return dropField(name, `expected a non-empty string, got ${describeValue(value)}`);
}

function inputMessages(prompt: unknown): string | undefined {
  if (typeof prompt === 'string') {
    return JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]);
  }
  if (!Array.isArray(prompt)) {
    return dropField(
      'prompt',
      `expected a string or an array of { role, content } messages, got ${describeValue(prompt)}`,
    );
  }
  const messages: { role: string; parts: { type: 'text'; content: string }[] }[] = [];
  prompt.forEach((message: unknown, index) => {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (typeof role === 'string' && typeof content === 'string') {
      messages.push({ role, parts: [{ type: 'text', content }] });
    } else {
      dropField(
        `prompt[${index}]`,
        `expected a { role: string, content: string } message, got ${describeValue(message)}`,
      );
    }
  });
  return messages.length === 0 ? undefined : JSON.stringify(messages);
}

/** Records the callback's error on the span; the bookkeeping itself never throws (the app's error is rethrown). */
function recordError(span: Span, error: unknown): void {
  try {
    const err = error instanceof Error ? error : new Error(String(error));
    span.recordException(err);
    span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
    span.setAttribute(
      'error.type',
      err.name && err.name !== 'Error' ? err.name : (err.constructor?.name ?? '_OTHER'),
    );
  } catch {
    // An error value that cannot be described (a throwing toString) is still rethrown as it is.
  }
}

/** The span's name and attributes from the options, leaving off (with a note) what is unusable. */
function spanSetup(options: unknown): { name: string; attributes: Record<string, string> } {
  const given: Partial<Record<keyof LlmSpanOptions, unknown>> =
    typeof options === 'object' && options !== null ? (options as LlmSpanOptions) : {};
  if (given !== options) dropField('options', `expected an object, got ${describeValue(options)}`);
  const attributes: Record<string, string> = { 'gen_ai.operation.name': 'chat' };
  const model = optionalString('model', given.model);
  if (model !== undefined) attributes['gen_ai.request.model'] = model;
  const provider = optionalString('provider', given.provider);
  if (provider !== undefined) attributes['gen_ai.provider.name'] = provider;
  const messages = inputMessages(given.prompt);
  if (messages !== undefined) attributes['gen_ai.input.messages'] = messages;
  const defaultName = model === undefined ? 'chat' : `chat ${model}`;
  const name = given.name === undefined ? defaultName : (optionalString('name', given.name) ?? defaultName);
  return { name, attributes };
}

function llmSpan(span: Span): LlmSpan {
  const handle: LlmSpan = {
    span,
    setResponse(text, finishReason = 'stop') {
      // A setter never throws into the app's call: an unusable value is left off with a note.
      try {
        const reason = typeof finishReason === 'string' && finishReason !== '' ? finishReason : 'stop';
        span.setAttribute(
          'gen_ai.output.messages',
          JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: String(text) }], finish_reason: reason },
          ]),
        );
        span.setAttribute('gen_ai.response.finish_reasons', [reason]);
      } catch (error) {
        dropField(
          'response',
          `it could not be read as text (${String(error instanceof Error ? error.name : typeof error)})`,
        );
      }
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
 * The span's `aqm.*` attributes: its own `userId`, `sessionId`, `metadata` and `tags` over those of
 * the enclosing `withAqmAttributes` (read here too, so that they need no span processor), and the
 * context `fn` runs in, which gives the merged values to the spans started inside. Throws a
 * `TypeError` for a field of the wrong type.
 */
function traceScope(options: LlmSpanOptions): { attributes: Attributes; context: Context } {
  const active = context.active();
  const given = typeof options === 'object' && options !== null ? options : {};
  const own = checkTraceAttributes('withLlmSpan', given);
  const inherited = traceAttributesIn(active);
  if (Object.keys(own).length === 0) {
    return { attributes: inherited === undefined ? {} : aqmSpanAttributes(inherited), context: active };
  }
  const merged = mergeTraceAttributes(inherited, own);
  return { attributes: aqmSpanAttributes(merged), context: active.setValue(TRACE_ATTRIBUTES_KEY, merged) };
}

/**
 * Runs a hand-written LLM call inside an active CLIENT span carrying the GenAI semantic
 * convention attributes, so the call becomes a prompt/response trace. An error thrown by `fn` is
 * recorded on the span (exception, ERROR status, `error.type`) and rethrown; the span always ends.
 * Returns what `fn` returns. `fn` always runs: a span field that is missing or unusable (say
 * `model: process.env.MODEL` with the variable unset) is left off the span, with a `diag` warning
 * naming it. Only an `fn` that is not a function, or a `userId`, `sessionId`, `metadata` or `tags`
 * of the wrong type, rejects (with a `TypeError`). Those four go on the span as `aqm.user.id`,
 * `aqm.session.id`, `aqm.metadata.<key>` and `aqm.tags` (over the values of an enclosing
 * `withAqmAttributes`, which the spans started inside `fn` get too) and reach the record's
 * `userId`, `sessionId` and `metadata`.
 *
 * @example
 * const answer = await withLlmSpan({ model: 'gpt-4o', provider: 'openai', prompt: question, userId: user.id }, async (span) => {
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
  if (typeof fn !== 'function')
    throw new TypeError(`Expected \`fn\` to be a function, got ${describeValue(fn)}`);
  // Whatever the span fields hold, the app's call runs: a bad one is only left off the span.
  let setup: { name: string; attributes: Record<string, string> };
  try {
    setup = spanSetup(options);
  } catch {
    setup = { name: 'chat', attributes: { 'gen_ai.operation.name': 'chat' } };
  }
  const { name, attributes } = setup;
  const scope = traceScope(options);
  const tracer = trace.getTracer('@aqm/otel');
  const startOptions = { kind: SpanKind.CLIENT, attributes: { ...attributes, ...scope.attributes } };
  return tracer.startActiveSpan(name, startOptions, scope.context, async (span) => {
    try {
      return await fn(llmSpan(span));
    } catch (error) {
      recordError(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}
