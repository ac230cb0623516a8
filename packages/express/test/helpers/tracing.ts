import { DiagLogLevel, diag, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

type Waiter = { predicate: (span: ReadableSpan) => boolean; resolve: (span: ReadableSpan) => void };

/** Tells waiters when a span they are interested in ends: tests wait on the event, not on time. */
class SpanEndNotifier implements SpanProcessor {
  #waiters: Waiter[] = [];
  #ended: ReadableSpan[] = [];

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    this.#ended.push(span);
    this.#waiters = this.#waiters.filter((waiter) => {
      if (!waiter.predicate(span)) return true;
      waiter.resolve(span);
      return false;
    });
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  reset(): void {
    this.#ended = [];
  }

  waitFor(
    predicate: (span: ReadableSpan) => boolean,
    what: string,
    timeoutMs: number,
  ): Promise<ReadableSpan> {
    const done = this.#ended.find(predicate);
    if (done !== undefined) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      // A bound on a failure, not a guess at timing: the span normally ends long before.
      const timer = setTimeout(
        () => reject(new Error(`no span ${what} ended within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#waiters.push({
        predicate,
        resolve: (span) => {
          clearTimeout(timer);
          resolve(span);
        },
      });
    });
  }
}

export const exporter = new InMemorySpanExporter();
const notifier = new SpanEndNotifier();
export const provider = new NodeTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter), notifier],
});
// Global provider, AsyncLocalStorage context manager and W3C propagators, as an app would set up.
provider.register();

/** The tracer a handler uses to make its own (LLM) spans. */
export const appTracer = trace.getTracer('test-app');

/** Forgets the spans of earlier tests. */
export function resetSpans(): void {
  exporter.reset();
  notifier.reset();
}

/** Resolves with the first ended span matching `predicate` (already ended or ending later). */
export function endedSpan(
  predicate: (span: ReadableSpan) => boolean,
  what = 'matching',
): Promise<ReadableSpan> {
  return notifier.waitFor(predicate, what, 5000);
}

/** Resolves with the ended span named `name`. */
export function spanNamed(name: string): Promise<ReadableSpan> {
  return endedSpan((span) => span.name === name, `named "${name}"`);
}

/** Every ended span so far. */
export function finishedSpans(): ReadableSpan[] {
  return exporter.getFinishedSpans();
}

/** The parent span id of a span (SDK 2 keeps it in `parentSpanContext`). */
export function parentIdOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** Records what the middleware reports through `diag`. */
export function captureDiag(): { messages: string[]; stop(): void } {
  const messages: string[] = [];
  const log =
    (level: string) =>
    (message: string, ...args: unknown[]) =>
      messages.push(`${level} ${message} ${args.map(String).join(' ')}`);
  diag.setLogger(
    {
      error: log('error'),
      warn: log('warn'),
      info: log('info'),
      debug: log('debug'),
      verbose: log('verbose'),
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  return { messages, stop: () => diag.disable() };
}
