import { type Context, context, createContextKey } from '@opentelemetry/api';

/**
 * The key every OpenTelemetry SDK line checks to skip tracing (`suppressTracing()` of
 * `@opentelemetry/core` sets it). `createContextKey` is `Symbol.for`-based, so this key equals the
 * SDK's whatever its version, without a dependency on `@opentelemetry/core`.
 */
const SUPPRESS_TRACING_KEY = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');

/** The active context with tracing suppressed. */
export function suppressedContext(base: Context = context.active()): Context {
  return base.setValue(SUPPRESS_TRACING_KEY, true);
}

/**
 * Runs `fn` with tracing suppressed, so an HTTP instrumentation does not trace our own export
 * requests (which would feed spans back into the pipeline that sends them).
 */
export function withTracingSuppressed<T>(fn: () => T): T {
  return context.with(suppressedContext(), fn);
}

/** Whether tracing is suppressed in `ctx` (for tests and diagnostics). */
export function isTracingSuppressedIn(ctx: Context): boolean {
  return ctx.getValue(SUPPRESS_TRACING_KEY) === true;
}
