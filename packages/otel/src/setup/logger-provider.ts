/**
 * The global `LoggerProvider` of `@opentelemetry/api-logs` and the inside of `@opentelemetry/sdk-logs`'
 * provider, read without depending on either package: `registerAqm()` adds its log processor to a
 * provider the app (or the `NodeSDK`) registered, and the content-loss warning says which setup
 * it sees.
 */

/** Where every copy of `@opentelemetry/api-logs` keeps the registered provider (a getter taking a version). */
const LOGS_GLOBAL = Symbol.for('io.opentelemetry.js.api.logs');
/** The compatibility version api-logs passes to that getter (1 since 0.3x). */
const LOGS_COMPATIBILITY_VERSION = 1;

/** Marks our log record processors, so that a copy of this package (ESM beside CJS) recognises them too. */
export const AQM_LOG_PROCESSOR = Symbol.for('@aqm/otel.AqmLogRecordProcessor');

/** A log record processor as `@opentelemetry/sdk-logs` calls it. */
export interface LogProcessorLike {
  onEmit(record: unknown, context?: unknown): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** What sdk-logs 0.200+ keeps inside a `LoggerProvider` (processors are fixed at construction). */
interface SharedState {
  /** The processors given at construction: `Logger.enabled()` asks each. */
  processors?: unknown;
  /** What `Logger.emit()` calls: a MultiLogRecordProcessor over `processors`, or a no-op one when empty. */
  activeProcessor?: { processors?: unknown };
}

interface ProviderInternals {
  /** sdk-logs before 0.200. */
  addLogRecordProcessor?: (processor: LogProcessorLike) => void;
  _sharedState?: SharedState;
}

/**
 * The `LoggerProvider` registered through any copy of `@opentelemetry/api-logs`, or `undefined`
 * when none is. Read from the global every copy shares, not through a copy of the API: a copy's
 * `getLoggerProvider()` answers its own proxy when nothing is registered.
 */
export function registeredLoggerProvider(): object | undefined {
  try {
    const getter = (globalThis as Record<symbol, unknown>)[LOGS_GLOBAL];
    if (typeof getter !== 'function') return undefined;
    const provider = (getter as (version: number) => unknown)(LOGS_COMPATIBILITY_VERSION);
    return typeof provider === 'object' && provider !== null ? provider : undefined;
  } catch {
    return undefined;
  }
}

/** The processors of an sdk-logs provider, or `undefined` when its inside is not the one known here. */
function processorList(provider: object): unknown[] | undefined {
  const list = (provider as ProviderInternals)._sharedState?.processors;
  return Array.isArray(list) ? list : undefined;
}

/**
 * Whether `provider` has one of our log record processors, or `undefined` when that cannot be
 * read (not an sdk-logs provider).
 */
export function hasAqmLogProcessor(provider: object): boolean | undefined {
  const list = processorList(provider);
  if (list === undefined) return undefined;
  return list.some(
    (processor) => typeof processor === 'object' && processor !== null && AQM_LOG_PROCESSOR in processor,
  );
}

/** Calls every processor of `list` (read at each call) as sdk-logs' MultiLogRecordProcessor does. */
function fanOut(list: unknown[]): LogProcessorLike {
  const each = () => list as LogProcessorLike[];
  return {
    onEmit: (record, context) => {
      for (const processor of each()) processor.onEmit(record, context);
    },
    forceFlush: async () => {
      await Promise.all(each().map((processor) => processor.forceFlush()));
    },
    shutdown: async () => {
      await Promise.all(each().map((processor) => processor.shutdown()));
    },
  };
}

/**
 * Adds `processor` to an already built `LoggerProvider`. sdk-logs before 0.200 has
 * `addLogRecordProcessor()`; 0.200 and later removed it (processors are fixed at construction),
 * so the processor joins the list the provider's loggers read on every record, as `registerAqm()`
 * does with a tracer provider's span processors. Returns how to take it out again, or `undefined`
 * when the provider is neither (then nothing changed).
 */
export function addLogProcessor(provider: object, processor: LogProcessorLike): (() => void) | undefined {
  const internals = provider as ProviderInternals;
  const state = internals._sharedState;
  const list = processorList(provider);
  if (state !== undefined && list !== undefined) {
    list.push(processor);
    // Built without processors, the provider emits to a no-op processor: emit to the list instead.
    const active = state.activeProcessor;
    const replaced = active?.processors !== list;
    if (replaced) state.activeProcessor = fanOut(list) as SharedState['activeProcessor'];
    return () => {
      const at = list.indexOf(processor);
      if (at >= 0) list.splice(at, 1);
      if (replaced) state.activeProcessor = active;
    };
  }
  if (typeof internals.addLogRecordProcessor === 'function') {
    internals.addLogRecordProcessor(processor);
    // It cannot be removed again; the processor does nothing once its target is shut down.
    return () => {};
  }
  return undefined;
}
