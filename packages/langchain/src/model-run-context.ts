/**
 * The chat model run's span as the active OpenTelemetry span while the model's own call runs, so
 * that what the model's client does (the `openai` or Anthropic SDK's instrumentation, an HTTP
 * client's) becomes a child of the run's span, in the same trace, instead of a trace of its own.
 *
 * A callback handler cannot do this alone: LangChain calls `handleChatModelStart` in an async scope
 * that has ended before `_generate` runs (langchain-ai/langchainjs#11221). So the model's entry
 * points (`generate`, behind `invoke` and `batch`, and `_streamIterator`, behind `stream`) run
 * inside a context whose active span is a {@link ModelRunSlot}; the handler, awaited in that
 * context, fills the slot with the run's span when it starts it; the model's call then runs under
 * it. Until filled, the slot stands for the span that was active before, so nothing else changes.
 */
import {
  type Attributes,
  type AttributeValue,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  type Link,
  type Span,
  type SpanContext,
  type SpanStatus,
  type TimeInput,
  trace,
} from '@opentelemetry/api';

/**
 * The active span during a chat model's call: the run's span once the handler has started it,
 * before that the span that was active when the call began (or none). Only the handler ends spans:
 * `end()` here does nothing.
 */
export class ModelRunSlot implements Span {
  readonly #outer: Span | undefined;
  #run: Span | undefined;

  constructor(outer: Span | undefined) {
    this.#outer = outer;
  }

  /** Makes `span` the active span of the call; only the first run started in the call takes it. */
  fill(span: Span): void {
    this.#run ??= span;
  }

  get #target(): Span | undefined {
    return this.#run ?? this.#outer;
  }

  spanContext(): SpanContext {
    return this.#target?.spanContext() ?? INVALID_SPAN_CONTEXT;
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.#target?.setAttribute(key, value);
    return this;
  }
  setAttributes(attributes: Attributes): this {
    this.#target?.setAttributes(attributes);
    return this;
  }
  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    this.#target?.addEvent(name, attributesOrTime, time);
    return this;
  }
  addLink(link: Link): this {
    this.#target?.addLink(link);
    return this;
  }
  addLinks(links: Link[]): this {
    this.#target?.addLinks(links);
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.#target?.setStatus(status);
    return this;
  }
  updateName(name: string): this {
    this.#target?.updateName(name);
    return this;
  }
  end(_endTime?: TimeInput): void {
    // The run's span is ended by the handler when the run ends; the outer span by its owner.
  }
  isRecording(): boolean {
    return this.#target?.isRecording() ?? false;
  }
  recordException(exception: Parameters<Span['recordException']>[0], time?: TimeInput): void {
    this.#target?.recordException(exception, time);
  }
}

/** The context a model call runs in: the active one, with a fresh slot as its active span. */
function withSlot(active: Context): Context {
  return trace.setSpan(active, new ModelRunSlot(trace.getSpan(active)));
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** `generate`, run in a context with a slot. */
function wrapGenerate(original: Method): Method {
  return function generate(this: unknown, ...args: unknown[]) {
    return context.with(withSlot(context.active()), () => original.apply(this, args));
  };
}

/**
 * `_streamIterator`, run in a context with a slot: an async generator's body runs at each `next()`,
 * in the context of that call, so every step is run in the slot's context, not only the creation.
 */
function wrapStreamIterator(original: Method): Method {
  return function _streamIterator(this: unknown, ...args: unknown[]) {
    const slotContext = withSlot(context.active());
    const inner = context.with(slotContext, () => original.apply(this, args)) as AsyncIterator<unknown>;
    const step =
      (method: 'next' | 'return' | 'throw') =>
      (value?: unknown): Promise<IteratorResult<unknown>> => {
        const call = inner[method];
        if (call === undefined)
          return method === 'throw' ? Promise.reject(value) : Promise.resolve({ done: true, value });
        return context.with(slotContext, () => call.call(inner, value));
      };
    const iterator: AsyncIterableIterator<unknown> = {
      next: step('next'),
      return: step('return'),
      throw: step('throw'),
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  };
}

/** What is patched on a chat model prototype, and what was there before. */
interface Patched {
  readonly generate: Method;
  readonly streamIterator: Method;
  readonly original: { generate: Method; streamIterator: Method };
}

const patches = new WeakMap<object, Patched>();

/**
 * Runs every chat model call of the LangChain copy `prototype` belongs to (`BaseChatModel.prototype`)
 * with its run's span active (see the module's comment). Idempotent; returns nothing to undo, see
 * {@link restoreModelRunContext}. A prototype without the expected methods is left as it is.
 */
export function propagateModelRunContext(prototype: object): void {
  if (patches.has(prototype)) return;
  const target = prototype as { generate?: unknown; _streamIterator?: unknown };
  if (typeof target.generate !== 'function' || typeof target._streamIterator !== 'function') return;
  const original = { generate: target.generate as Method, streamIterator: target._streamIterator as Method };
  const patched: Patched = {
    generate: wrapGenerate(original.generate),
    streamIterator: wrapStreamIterator(original.streamIterator),
    original,
  };
  target.generate = patched.generate;
  target._streamIterator = patched.streamIterator;
  patches.set(prototype, patched);
}

/** Undoes {@link propagateModelRunContext}, unless something else has wrapped the methods since. */
export function restoreModelRunContext(prototype: object): void {
  const patched = patches.get(prototype);
  if (patched === undefined) return;
  const target = prototype as { generate: unknown; _streamIterator: unknown };
  // Wrapped again by someone else since: taking ours out from under theirs would drop their wrapper.
  if (target.generate !== patched.generate || target._streamIterator !== patched.streamIterator) return;
  target.generate = patched.original.generate;
  target._streamIterator = patched.original.streamIterator;
  patches.delete(prototype);
}
