import {
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GlobalTracerProvider } from '../src/tracing/global-tracer-provider.js';
import { registerOwnProvider } from '../src/tracing/own-provider.js';
import { handOverOnAppRegistration, type TraceRegistrar } from '../src/tracing/provider-handover.js';
import { registeredProvider } from '../src/tracing/registered-provider.js';

afterEach(() => {
  trace.disable();
  context.disable();
  propagation.disable();
});

/** A registrar whose method lives on its prototype, as on the API's TraceAPI. */
class FakeRegistrar implements TraceRegistrar {
  readonly registered: TracerProvider[] = [];
  setGlobalTracerProvider(provider: TracerProvider): boolean {
    this.registered.push(provider);
    return true;
  }
}

function contextManagerWorks(): boolean {
  const key = createContextKey('probe');
  return context.with(ROOT_CONTEXT.setValue(key, 1), () => context.active().getValue(key) === 1);
}

describe('handOverOnAppRegistration', () => {
  it("runs before(), the app's registration and after() in that order, once, then steps aside", () => {
    const order: string[] = [];
    const registrar = new FakeRegistrar();
    const other = new FakeRegistrar();
    handOverOnAppRegistration([registrar, other, registrar], {
      before: () => order.push('before'),
      after: (registered) => order.push(`after ${registered}`),
      onError: () => order.push('error'),
    });
    const appProvider = new NodeTracerProvider();
    expect(registrar.setGlobalTracerProvider(appProvider)).toBe(true);
    expect(order).toEqual(['before', 'after true']);
    expect(registrar.registered).toEqual([appProvider]);
    // Every wrapper is gone: the prototype's method is back, and a later call is plain.
    expect(Object.hasOwn(registrar, 'setGlobalTracerProvider')).toBe(false);
    expect(Object.hasOwn(other, 'setGlobalTracerProvider')).toBe(false);
    other.setGlobalTracerProvider(appProvider);
    expect(order).toEqual(['before', 'after true']);
  });

  it('reports a step that throws instead of throwing into the app', () => {
    const registrar = new FakeRegistrar();
    const onError = vi.fn();
    handOverOnAppRegistration([registrar], {
      before: () => {
        throw new Error('before broke');
      },
      after: () => {
        throw new Error('after broke');
      },
      onError,
    });
    expect(registrar.setGlobalTracerProvider(new NodeTracerProvider())).toBe(true);
    expect(onError.mock.calls.map(([error]) => (error as Error).message)).toEqual([
      'before broke',
      'after broke',
    ]);
  });

  it('the returned function removes the wrappers, but leaves one someone else put on top', () => {
    const registrar = new FakeRegistrar();
    const ownMethod = { setGlobalTracerProvider: (_provider: TracerProvider) => false };
    const original = ownMethod.setGlobalTracerProvider;
    const stop = handOverOnAppRegistration([registrar, ownMethod], {
      before: () => {},
      after: () => {},
      onError: () => {},
    });
    const theirs = () => true;
    registrar.setGlobalTracerProvider = theirs;
    stop();
    expect(registrar.setGlobalTracerProvider).toBe(theirs);
    expect(ownMethod.setGlobalTracerProvider).toBe(original);
  });
});

describe('registerOwnProvider with the handover, against the real OpenTelemetry API', () => {
  it('lets an app register its own provider later: it becomes the global one, and spans follow it', () => {
    const ours = new InMemorySpanExporter();
    const own = registerOwnProvider(new SimpleSpanProcessor(ours), 'support-bot');
    const adopted = vi.fn();
    handOverOnAppRegistration([trace], {
      before: () => own.yieldGlobals(),
      after: adopted,
      onError: (error) => {
        throw error;
      },
    });
    const instrumentationTracer = new GlobalTracerProvider().getTracer('instrumentation');
    instrumentationTracer.startSpan('before the app registered').end();
    expect(ours.getFinishedSpans().map((span) => span.name)).toEqual(['before the app registered']);
    expect(ours.getFinishedSpans()[0]?.resource.attributes['service.name']).toBe('support-bot');

    const theirs = new InMemorySpanExporter();
    const appProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(theirs)] });
    appProvider.register();

    expect(adopted).toHaveBeenCalledWith(true);
    expect(registeredProvider()).toBe(appProvider);
    expect(contextManagerWorks()).toBe(true);
    instrumentationTracer.startSpan('after the app registered').end();
    expect(theirs.getFinishedSpans().map((span) => span.name)).toEqual(['after the app registered']);
    expect(ours.getFinishedSpans()).toHaveLength(1);
  });

  it('leaves a context manager and propagator the app had, and unregisters only its own at shutdown', async () => {
    const appProvider = new NodeTracerProvider();
    appProvider.register(); // context manager + propagator, and a provider we then take out
    trace.disable();
    const own = registerOwnProvider(new SimpleSpanProcessor(new InMemorySpanExporter()), undefined);
    expect(registeredProvider()).toBe(own.provider);
    await own.shutdown();
    expect(registeredProvider()).toBeUndefined();
    expect(contextManagerWorks()).toBe(true);
    expect(propagation.fields().length).toBeGreaterThan(0);
  });

  it('sets up and takes down all three when the app had nothing', async () => {
    const own = registerOwnProvider(new SimpleSpanProcessor(new InMemorySpanExporter()), undefined);
    expect(contextManagerWorks()).toBe(true);
    expect(propagation.fields()).toEqual(['traceparent', 'tracestate', 'baggage']);
    await own.shutdown();
    expect(registeredProvider()).toBeUndefined();
    expect(contextManagerWorks()).toBe(false);
    expect(propagation.fields()).toEqual([]);
  });

  it('reclaim() registers it again after a yield', () => {
    const own = registerOwnProvider(new SimpleSpanProcessor(new InMemorySpanExporter()), undefined);
    own.yieldGlobals();
    expect(registeredProvider()).toBeUndefined();
    expect(contextManagerWorks()).toBe(false);
    own.reclaim();
    expect(registeredProvider()).toBe(own.provider);
    expect(contextManagerWorks()).toBe(true);
  });
});
