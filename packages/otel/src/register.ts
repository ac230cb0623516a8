import {
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { aqmDiag } from './diag.js';
import { optionalRequire } from './export/optional-require.js';
import { shutDownWithin } from './export/shutdown-within.js';
import { AqmLogRecordProcessor } from './log-record-processor.js';
import { booleanOption } from './option-checks.js';
import { type AqmOtelOptions, DEFAULT_SHUTDOWN_TIMEOUT_MS } from './options.js';
import { AqmSpanProcessor } from './processor.js';
import type { SpanProcessor } from './sdk-types.js';
import { installExitFlush } from './setup/exit-flush.js';
import { addLogProcessor, registeredLoggerProvider } from './setup/logger-provider.js';

/** Options of {@link registerAqm}: the processor's options, and whether to set up log records. */
export interface RegisterAqmOptions extends AqmOtelOptions {
  /**
   * Join the content `@opentelemetry/instrumentation-openai` emits as log records to its trace: add
   * an {@link AqmLogRecordProcessor} to the registered `LoggerProvider` (the NodeSDK's), or, when
   * none is registered and `@opentelemetry/sdk-logs` is installed, register one with it. Default `true`.
   */
  logs?: boolean;
  /**
   * When the app's event loop runs dry with traces held (a script that ends without calling
   * `shutdown()`), send them before the process exits, holding it at most `shutdownTimeoutMs` in
   * all (what is not delivered by then is written to `persistDir`, or lost, and said).
   * Signals are left to the app. Default `true`.
   */
  flushOnExit?: boolean;
}

/** How {@link registerAqm} hooked into tracing. */
export type TracingSetup =
  /** No tracer provider was registered: a `NodeTracerProvider` with the processor was created and registered. */
  | 'created-provider'
  /** The processor was added to the tracer provider the app had already registered. */
  | 'added-to-provider'
  /** A provider is registered but does not let processors be added; see the warning in `diag`. */
  | 'not-attached'
  /** Nothing was set up: turned off (`OTEL_SDK_DISABLED`, `AQM_DISABLED`) or not configured. */
  | 'disabled';

/** How {@link registerAqm} hooked into logs. */
export type LogsSetup =
  /** No logger provider was registered: one with an {@link AqmLogRecordProcessor} was created and registered. */
  | 'created-provider'
  /** An {@link AqmLogRecordProcessor} was added to the logger provider the app (or the NodeSDK) registered. */
  | 'added-to-provider'
  /** A logger provider is registered but does not let processors be added; see the warning in `diag`. */
  | 'existing-provider'
  /** No logger provider is registered, and `@opentelemetry/sdk-logs` or `@opentelemetry/api-logs` is not installed. */
  | 'unavailable'
  /** Not asked for (`logs: false`), or nothing was set up (turned off, not configured). */
  | 'disabled';

/** What {@link registerAqm} returns. */
export interface AqmRegistration {
  /** The processor that sends the traces (for `stats()` and `forceFlush()`). */
  readonly processor: AqmSpanProcessor;
  readonly tracing: TracingSetup;
  readonly logs: LogsSetup;
  /** Flushes within `shutdownTimeoutMs`, shuts down and unregisters what `registerAqm` created. Never rejects. */
  shutdown(): Promise<void>;
}

/** The internals of SDK tracer providers that registerAqm may reach into (see `attach`). */
interface ProviderInternals {
  addSpanProcessor?: (processor: SpanProcessor) => void;
  _activeSpanProcessor?: { _spanProcessors?: unknown };
  forceFlush?: unknown;
}

type Undo = () => Promise<void>;

/** The provider behind the global `ProxyTracerProvider`, or `undefined` when only the no-op one is set. */
function registeredProvider(): (TracerProvider & ProviderInternals) | undefined {
  const global = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider };
  const delegate = (
    typeof global.getDelegate === 'function' ? global.getDelegate() : global
  ) as TracerProvider & ProviderInternals;
  // The no-op provider only has getTracer; every SDK provider can flush.
  return typeof delegate.forceFlush === 'function' ? delegate : undefined;
}

/** Whether a context manager is registered: the no-op one does not carry values into `with()`. */
function hasContextManager(): boolean {
  const probe = createContextKey('@aqm/otel context manager probe');
  return context.with(ROOT_CONTEXT.setValue(probe, true), () => context.active().getValue(probe) === true);
}

/** Adds the processor to an already registered provider. */
function attach(
  provider: ProviderInternals,
  processor: AqmSpanProcessor,
): { setup: TracingSetup; undo: Undo } {
  if (typeof provider.addSpanProcessor === 'function') {
    // SDK 1.x: the public way. (It cannot be removed again; shutdown makes it inert.)
    provider.addSpanProcessor(processor);
    return { setup: 'added-to-provider', undo: () => processor.shutdown() };
  }
  const list = provider._activeSpanProcessor?._spanProcessors;
  if (Array.isArray(list)) {
    // SDK 2.x removed addSpanProcessor: processors are fixed at construction. Its MultiSpanProcessor
    // keeps them in this array, which its tracers read on every span, so adding to it is the only
    // way to join a provider the app already registered.
    list.push(processor);
    return {
      setup: 'added-to-provider',
      undo: async () => {
        const at = list.indexOf(processor);
        if (at >= 0) list.splice(at, 1);
        await processor.shutdown();
      },
    };
  }
  aqmDiag.warn(
    'registerAqm: the registered tracer provider does not let span processors be added, so no trace is sent. ' +
      'Pass the processor when you create the provider instead: `spanProcessors: [new AqmSpanProcessor()]`.',
  );
  return { setup: 'not-attached', undo: () => processor.shutdown() };
}

/** Creates and registers a NodeTracerProvider with the processor. */
function createTracing(processor: AqmSpanProcessor): { setup: TracingSetup; undo: Undo } {
  interface NodeProvider extends TracerProvider {
    register(): void;
    shutdown(): Promise<void>;
  }
  const sdk = optionalRequire<{ NodeTracerProvider: new (config: object) => NodeProvider }>(
    '@opentelemetry/sdk-trace-node',
  );
  if (sdk === undefined) {
    void processor.shutdown();
    throw new Error(
      'registerAqm: no tracer provider is registered and @opentelemetry/sdk-trace-node is not installed. ' +
        'Install it (npm install @opentelemetry/sdk-trace-node) or register your own provider first.',
    );
  }
  const hadContextManager = hasContextManager();
  const hadPropagator = propagation.fields().length > 0;
  const provider = new sdk.NodeTracerProvider({ spanProcessors: [processor] });
  provider.register();
  return {
    setup: 'created-provider',
    undo: async () => {
      await provider.shutdown();
      if (registeredProvider() === provider) trace.disable();
      // Only what register() set up for us: the app's own context manager or propagator stays.
      if (!hadContextManager) context.disable();
      if (!hadPropagator) propagation.disable();
    },
  };
}

/**
 * Joins gen_ai.* log records to their traces: adds an AqmLogRecordProcessor to the registered
 * LoggerProvider (the NodeSDK's, say), or registers one with it when none is, when possible.
 */
function setUpLogs(processor: AqmSpanProcessor): { setup: LogsSetup; undo?: Undo } {
  const existing = registeredLoggerProvider();
  if (existing !== undefined) {
    const remove = addLogProcessor(existing, new AqmLogRecordProcessor(processor));
    if (remove !== undefined) return { setup: 'added-to-provider', undo: async () => remove() };
    // Said through diag only: it matters only if an instrumentation sends content as log records,
    // and then the content-loss warning says so on stderr.
    aqmDiag.warn(
      'registerAqm: the registered LoggerProvider does not let log record processors be added (it is not ' +
        "@opentelemetry/sdk-logs' LoggerProvider), so gen_ai.* log records (the content of " +
        '@opentelemetry/instrumentation-openai) are not joined to their traces. Create it with ' +
        '`new AqmLogRecordProcessor(aqm.processor)` among its processors.',
    );
    return { setup: 'existing-provider' };
  }
  interface LogsApi {
    logs: { setGlobalLoggerProvider(provider: object): object; disable(): void };
  }
  interface SdkLogs {
    LoggerProvider: new (config: { processors: object[] }) => { shutdown(): Promise<void> };
  }
  const api = optionalRequire<LogsApi>('@opentelemetry/api-logs');
  const sdk = optionalRequire<SdkLogs>('@opentelemetry/sdk-logs');
  if (api === undefined || sdk === undefined) return { setup: 'unavailable' };
  const loggerProvider = new sdk.LoggerProvider({ processors: [new AqmLogRecordProcessor(processor)] });
  api.logs.setGlobalLoggerProvider(loggerProvider);
  return {
    setup: 'created-provider',
    undo: async () => {
      await loggerProvider.shutdown();
      api.logs.disable();
    },
  };
}

/**
 * One call to send an app's LLM traces to the service.
 *
 * - When the app already registered a tracer provider (its own `NodeTracerProvider`, or the
 *   `NodeSDK`), an {@link AqmSpanProcessor} is added to it and nothing else changes.
 * - Otherwise a `NodeTracerProvider` (from `@opentelemetry/sdk-trace-node`) with the processor is
 *   created and registered, with the default context manager and propagator.
 * - Unless `logs: false`, an {@link AqmLogRecordProcessor} is added to the registered
 *   `LoggerProvider` (the NodeSDK's: its exporters stay), or, when none is registered and
 *   `@opentelemetry/sdk-logs` is installed, a `LoggerProvider` with it is registered.
 *
 * Throws when an option passed here is invalid (like the processor's constructor). When
 * `OTEL_SDK_DISABLED` or `AQM_DISABLED` is true, or the connection settings are missing from the
 * environment (one warning names them), it sets nothing up and returns `tracing: 'disabled'`.
 * The returned `shutdown()` flushes and unregisters what was created here.
 *
 * @example
 * const aqm = registerAqm({ environment: 'production' });
 * process.on('SIGTERM', () => void aqm.shutdown());
 */
export function registerAqm(options: RegisterAqmOptions = {}): AqmRegistration {
  const { logs, flushOnExit, ...processorOptions } = options;
  const withLogs = booleanOption('logs', logs, true);
  const withExitFlush = booleanOption('flushOnExit', flushOnExit, true);
  const processor = new AqmSpanProcessor(processorOptions);
  if (!processor.enabled) {
    // Off or not configured (already said once): the app's tracing stays exactly as it was.
    return { processor, tracing: 'disabled', logs: 'disabled', shutdown: () => processor.shutdown() };
  }
  const existing = registeredProvider();
  const tracing = existing === undefined ? createTracing(processor) : attach(existing, processor);
  const logSetup: { setup: LogsSetup; undo?: Undo } = withLogs ? setUpLogs(processor) : { setup: 'disabled' };
  const removeExitFlush = withExitFlush
    ? installExitFlush({
        flush: () => processor.forceFlush(),
        shutdown: (timeoutMs) => shutDownWithin(processor, timeoutMs),
        hasPending: () => {
          const { queuedTraces, openTraces } = processor.stats();
          return queuedTraces + openTraces > 0;
        },
        hasQueued: () => processor.stats().queuedTraces > 0,
        timeoutMs: processorOptions.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
        // Called from the app's own code: SIGTERM and SIGINT are the app's to handle.
        signals: false,
      })
    : () => {};
  let done: Promise<void> | undefined;
  return {
    processor,
    tracing: tracing.setup,
    logs: logSetup.setup,
    shutdown() {
      done ??= (async () => {
        removeExitFlush();
        try {
          await logSetup.undo?.();
        } catch (error) {
          aqmDiag.warn(`registerAqm: shutting down the logger provider failed: ${String(error)}`);
        }
        try {
          await tracing.undo();
        } catch (error) {
          aqmDiag.warn(`registerAqm: shutting down tracing failed: ${String(error)}`);
        }
      })();
      return done;
    },
  };
}
