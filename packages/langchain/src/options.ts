import { type Tracer, type TracerProvider, trace } from '@opentelemetry/api';
import { LANGCHAIN_HANDLER_VERSION } from './version.js';

/**
 * Options of {@link AqmCallbackHandler}. Every option is optional; each value is checked at
 * construction and a bad one throws an error naming it.
 */
export interface AqmCallbackHandlerOptions {
  /** The tracer spans are made with. Default: `@aqm/langchain`'s tracer from the global provider. */
  tracer?: Tracer | undefined;
  /** A provider to take the tracer from instead of the global one (not with `tracer`). */
  tracerProvider?: TracerProvider | undefined;
  /**
   * Record content: messages, tool arguments and results, retrieval queries and documents.
   * `false` keeps only names, models, token counts, timings and errors. Default `true`.
   */
  captureContent?: boolean | undefined;
  /**
   * Longest text kept in one message part, tool argument or result, or document (longer text is
   * cut with a visible marker). A message list keeps its newest messages within 4× this. Default 32768.
   */
  maxValueChars?: number | undefined;
  /** Runs open at once; past this the oldest is ended with the error "run never ended". Default 10000. */
  maxOpenRuns?: number | undefined;
  /** A run still open after this long is ended with the error "run never ended" (checked when a run starts). Default 600000 (10 min). */
  maxRunAgeMs?: number | undefined;
}

/** The options with defaults applied. */
export interface ResolvedHandlerOptions {
  tracer: Tracer;
  captureContent: boolean;
  maxValueChars: number;
  maxOpenRuns: number;
  maxRunAgeMs: number;
}

const TRACER_NAME = '@aqm/langchain';
const KNOWN_OPTIONS = [
  'tracer',
  'tracerProvider',
  'captureContent',
  'maxValueChars',
  'maxOpenRuns',
  'maxRunAgeMs',
];

function describeValue(value: unknown): string {
  if (value === null) return '`null`';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  const text = String(value);
  return `\`${text.length > 60 ? `${text.slice(0, 60)}…` : text}\` (${typeof value})`;
}

function integerOption(name: string, value: unknown, defaultValue: number, min: number): number {
  if (value === undefined) return defaultValue;
  const expectation = min === 1 ? 'a positive integer' : `an integer >= ${min}`;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`Expected \`${name}\` to be ${expectation}, got ${describeValue(value)}`);
  }
  if (value < min)
    throw new RangeError(`Expected \`${name}\` to be ${expectation}, got ${describeValue(value)}`);
  return value;
}

function hasMethod(value: unknown, method: string): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)[method] === 'function'
  );
}

function resolveTracer(options: AqmCallbackHandlerOptions): Tracer {
  const { tracer, tracerProvider } = options;
  if (tracer !== undefined && tracerProvider !== undefined) {
    throw new TypeError('Pass either `tracer` or `tracerProvider`, not both');
  }
  if (tracer !== undefined) {
    if (!hasMethod(tracer, 'startSpan')) {
      throw new TypeError(`Expected \`tracer\` to be an OpenTelemetry Tracer, got ${describeValue(tracer)}`);
    }
    return tracer;
  }
  if (tracerProvider !== undefined) {
    if (!hasMethod(tracerProvider, 'getTracer')) {
      throw new TypeError(
        `Expected \`tracerProvider\` to be an OpenTelemetry TracerProvider, got ${describeValue(tracerProvider)}`,
      );
    }
    return tracerProvider.getTracer(TRACER_NAME, LANGCHAIN_HANDLER_VERSION);
  }
  // The global API hands out a proxy tracer, so a provider registered after this handler was made is still used.
  return trace.getTracer(TRACER_NAME, LANGCHAIN_HANDLER_VERSION);
}

/**
 * Checks the options and fills in defaults. Throws a `TypeError`/`RangeError` naming the first bad option.
 *
 * @example
 * resolveHandlerOptions({ maxOpenRuns: 500 }).maxRunAgeMs; // 600000
 */
export function resolveHandlerOptions(options: AqmCallbackHandlerOptions = {}): ResolvedHandlerOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`Expected the options to be an object, got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.includes(key)) {
      throw new TypeError(`Unknown option \`${key}\`; known options are ${KNOWN_OPTIONS.join(', ')}`);
    }
  }
  const { captureContent } = options;
  if (captureContent !== undefined && typeof captureContent !== 'boolean') {
    throw new TypeError(`Expected \`captureContent\` to be a boolean, got ${describeValue(captureContent)}`);
  }
  return {
    tracer: resolveTracer(options),
    captureContent: captureContent ?? true,
    maxValueChars: integerOption('maxValueChars', options.maxValueChars, 32_768, 64),
    maxOpenRuns: integerOption('maxOpenRuns', options.maxOpenRuns, 10_000, 1),
    maxRunAgeMs: integerOption('maxRunAgeMs', options.maxRunAgeMs, 600_000, 1),
  };
}
