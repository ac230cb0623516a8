import {
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerOptions,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';

/**
 * A tracer that asks the global tracer provider for its tracer on every span. The API's own proxy
 * tracer keeps the first provider it meets; the instrumentations get this one instead, so that
 * when the app registers its own provider after the preload (see `provider-handover.ts`), their
 * spans go to the app's provider from then on.
 */
class GlobalTracer implements Tracer {
  readonly #name: string;
  readonly #version: string | undefined;
  readonly #options: TracerOptions | undefined;

  constructor(name: string, version: string | undefined, options: TracerOptions | undefined) {
    this.#name = name;
    this.#version = version;
    this.#options = options;
  }

  startSpan(name: string, options?: SpanOptions, context?: Context): Span {
    return this.#current().startSpan(name, options, context);
  }

  // The three overloads of Tracer#startActiveSpan, passed through as they are.
  readonly startActiveSpan = ((...args: unknown[]) => {
    const tracer = this.#current();
    return (tracer.startActiveSpan as (...all: unknown[]) => unknown).apply(tracer, args);
  }) as Tracer['startActiveSpan'];

  #current(): Tracer {
    return trace.getTracerProvider().getTracer(this.#name, this.#version, this.#options);
  }
}

/** Hands out {@link GlobalTracer}s: tracers that always follow the registered global provider. */
export class GlobalTracerProvider implements TracerProvider {
  /**
   * A tracer that resolves the global provider's tracer per span.
   *
   * @example
   * instrumentation.setTracerProvider(new GlobalTracerProvider());
   */
  getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    return new GlobalTracer(name, version, options);
  }
}
