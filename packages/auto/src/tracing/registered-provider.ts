import { type TracerProvider, trace } from '@opentelemetry/api';

/**
 * The SDK provider registered as the global one, or `undefined` when only the API's no-op
 * provider is there. (The same test as `registerAqm()`: every SDK provider can flush.)
 */
export function registeredProvider(): TracerProvider | undefined {
  const global = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider };
  const delegate = typeof global.getDelegate === 'function' ? global.getDelegate() : global;
  return typeof (delegate as { forceFlush?: unknown }).forceFlush === 'function' ? delegate : undefined;
}
