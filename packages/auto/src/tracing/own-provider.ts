import { context, createContextKey, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { registeredProvider } from './registered-provider.js';

/** The tracer provider `@aqm/auto` registers when the app has none (yet). */
export interface OwnTracing {
  readonly provider: NodeTracerProvider;
  /**
   * Frees the global slots this setup holds (tracer provider, and the context manager and
   * propagator when it set them), so that the app's own registration succeeds as if `@aqm/auto`
   * were not there. The provider keeps its processor: spans of tracers taken from it still count.
   */
  yieldGlobals(): void;
  /** Registers the provider again after a yield whose registration then failed. */
  reclaim(): void;
  /** Shuts the provider (and its processor) down and, unless yielded, unregisters what it set. */
  shutdown(): Promise<void>;
}

/** Whether a context manager is registered: the no-op one does not carry values into `with()`. */
function hasContextManager(): boolean {
  const probe = createContextKey('@aqm/auto context manager probe');
  return context.with(ROOT_CONTEXT.setValue(probe, true), () => context.active().getValue(probe) === true);
}

/**
 * Creates and registers a `NodeTracerProvider` with `processor`, with the default context manager
 * and propagator and `service.name` from `OTEL_SERVICE_NAME` (the SDK's provider does not read
 * it; the `NodeSDK` does).
 *
 * @example
 * const own = registerOwnProvider(processor, 'support-bot');
 */
export function registerOwnProvider(processor: SpanProcessor, serviceName: string | undefined): OwnTracing {
  const hadContextManager = hasContextManager();
  const hadPropagator = propagation.fields().length > 0;
  const resource =
    serviceName === undefined
      ? defaultResource()
      : defaultResource().merge(resourceFromAttributes({ 'service.name': serviceName }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  let holdsGlobals = true;

  function release(): void {
    if (!holdsGlobals) return;
    holdsGlobals = false;
    if (registeredProvider() === provider) trace.disable();
    // Only what register() set for us: a context manager or propagator the app had stays.
    if (!hadContextManager) context.disable();
    if (!hadPropagator) propagation.disable();
  }

  return {
    provider,
    yieldGlobals: release,
    reclaim() {
      if (holdsGlobals) return;
      holdsGlobals = true;
      provider.register({
        contextManager: hadContextManager ? null : undefined,
        propagator: hadPropagator ? null : undefined,
      });
    },
    async shutdown() {
      await provider.shutdown();
      release();
    },
  };
}
