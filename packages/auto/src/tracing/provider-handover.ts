import type { TracerProvider } from '@opentelemetry/api';

/** The method of the API's `trace` singleton that registers a global tracer provider. */
export interface TraceRegistrar {
  setGlobalTracerProvider(provider: TracerProvider): boolean;
}

/** What to do around the app's registration. */
export interface HandoverSteps {
  /** Frees the global slots, so the app's registration can succeed. */
  before(): void;
  /** The app's registration returned `registered`. */
  after(registered: boolean): void;
  /** A step threw: reported here, never thrown into the app's registration call. */
  onError(error: unknown): void;
}

function guarded(steps: HandoverSteps, step: () => void): void {
  try {
    step();
  } catch (error) {
    steps.onError(error);
  }
}

/**
 * Hands the global tracer provider over to the app when it registers its own after the preload.
 *
 * The preload registers a provider so that zero-code tracing works; an app that then calls
 * `provider.register()` (or the `NodeSDK`) would be refused by the OpenTelemetry API
 * ("duplicate registration") and silently lose its own telemetry. So the first call to
 * `setGlobalTracerProvider` on any of `registrars` (the `trace` singletons of the API copies the
 * app may use: ESM and CommonJS builds) first runs `steps.before()` to free the slots, lets the
 * app's registration through, then runs `steps.after()` (which attaches the AQM processor to the
 * app's provider). Every wrapper is removed at that first call, or by the returned function.
 *
 * @example
 * const stop = handOverOnAppRegistration([trace], { before: own.yieldGlobals, after: adopt });
 */
export function handOverOnAppRegistration(
  registrars: readonly TraceRegistrar[],
  steps: HandoverSteps,
): () => void {
  const restores: Array<() => void> = [];
  let handedOver = false;
  const restoreAll = () => {
    for (const restore of restores.splice(0)) restore();
  };
  for (const registrar of new Set(registrars)) {
    const ownMethod = Object.hasOwn(registrar, 'setGlobalTracerProvider');
    const original = registrar.setGlobalTracerProvider;
    const wrapper = function (this: TraceRegistrar, provider: TracerProvider): boolean {
      if (handedOver) return original.call(this, provider);
      handedOver = true;
      restoreAll();
      guarded(steps, () => steps.before());
      const registered = original.call(this, provider);
      guarded(steps, () => steps.after(registered));
      return registered;
    };
    registrar.setGlobalTracerProvider = wrapper;
    restores.push(() => {
      // Someone else replaced it since: leave theirs in place.
      if (registrar.setGlobalTracerProvider !== wrapper) return;
      if (ownMethod) registrar.setGlobalTracerProvider = original;
      else Reflect.deleteProperty(registrar, 'setGlobalTracerProvider');
    });
  }
  return restoreAll;
}
