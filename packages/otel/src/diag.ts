import { printableLine } from '@aqm/wire/light';
import { type DiagLogger, diag } from '@opentelemetry/api';
import { debugSource } from './debug/debug-env.js';

type Level = 'error' | 'warn' | 'info' | 'debug' | 'verbose';

/** Where every copy of `@opentelemetry/api` 1.x keeps its globals (`diag`, `trace`, ...). */
const API_GLOBALS = Symbol.for('opentelemetry.js.api.1');

/** `OTEL_LOG_LEVEL` values, as numbers of `DiagLogLevel` (a smaller number is more severe). */
const LEVELS: Record<string, number> = {
  NONE: 0,
  ERROR: 30,
  WARN: 50,
  INFO: 60,
  DEBUG: 70,
  VERBOSE: 80,
  ALL: 9999,
};
const SEVERITY: Record<Level, number> = { error: 30, warn: 50, info: 60, debug: 70, verbose: 80 };

/**
 * Whether the app gave OpenTelemetry's `diag` a logger (`diag.setLogger(...)`, which the NodeSDK
 * also calls). Read from the API's global registry rather than from our own copy of the API, so a
 * logger set through another copy counts too; `diag.disable()` removes it again.
 */
export function diagLoggerConfigured(): boolean {
  try {
    const globals = (globalThis as Record<symbol, unknown>)[API_GLOBALS];
    return (
      typeof globals === 'object' && globals !== null && (globals as { diag?: unknown }).diag !== undefined
    );
  } catch {
    return false;
  }
}

/** `OTEL_LOG_LEVEL` as a threshold, or `undefined` when unset or not a level name. */
export function envLogLevel(env: Record<string, string | undefined> = process.env): number | undefined {
  const value = env.OTEL_LOG_LEVEL?.trim().toUpperCase();
  return value === undefined || value === '' ? undefined : LEVELS[value];
}

function writeStderr(line: string): void {
  try {
    // A message may quote the service: control characters are made visible.
    process.stderr.write(`${printableLine(line)}\n`);
  } catch {
    // A closed stderr must not take the app down.
  }
}

const component = diag.createComponentLogger({ namespace: '@aqm/otel' });

function route(level: Level): (message: string, ...args: unknown[]) => void {
  return (message, ...args) => {
    if (diagLoggerConfigured()) {
      component[level](message, ...args);
      return;
    }
    // No diag logger, but OTEL_LOG_LEVEL set: honoured as the NodeSDK would, on stderr; AQM_DEBUG
    // asks for every message of ours there.
    const threshold = envLogLevel() ?? (debugSource(process.env) === 'AQM_DEBUG' ? LEVELS.DEBUG : undefined);
    if (threshold !== undefined && SEVERITY[level] <= threshold)
      writeStderr(`@aqm/otel ${level}: ${message}`);
  };
}

/**
 * The package's internal logger. It goes through OpenTelemetry's `diag` when the app set a logger
 * there (so our messages go wherever OpenTelemetry's own do); without one, `OTEL_LOG_LEVEL` (when
 * set) prints messages at that level or above to stderr. The global logger is looked up at each
 * call, so a logger set after this module loaded is honoured.
 */
export const aqmDiag: DiagLogger = {
  error: route('error'),
  warn: route('warn'),
  info: route('info'),
  debug: route('debug'),
  verbose: route('verbose'),
};

/** Minimum time between two stderr lines of the same kind. */
const STDERR_INTERVAL_MS = 5 * 60_000;
const lastPrinted = new Map<string, number>();

/**
 * Reports a problem the app must see even with no logging set up (delivery stopped, or no
 * configuration). Through `logger` as usual; and when `logger` is the package's own and the app
 * set up neither a `diag` logger nor `OTEL_LOG_LEVEL`, as one line on stderr, at most one per
 * `kind` every `minIntervalMs` (5 minutes; a caller that bounds its own lines passes 0, so a line
 * it owes, such as the end of something it said began, is never held back). Callers never put the
 * API key in `message`.
 *
 * @example
 * alert(aqmDiag, 'error', 'unauthorized', 'The service rejected the API key (401) ...');
 */
export function alert(
  logger: DiagLogger,
  level: 'error' | 'warn',
  kind: string,
  message: string,
  minIntervalMs = STDERR_INTERVAL_MS,
): void {
  if (logger !== aqmDiag || diagLoggerConfigured() || envLogLevel() !== undefined) {
    logger[level](message);
    return;
  }
  const now = Date.now();
  const last = lastPrinted.get(kind);
  if (last !== undefined && now - last < minIntervalMs) return;
  lastPrinted.set(kind, now);
  writeStderr(`@aqm/otel: ${message}`);
}

/** Forgets which alerts were printed (for tests). @internal */
export function resetAlertsForTests(): void {
  lastPrinted.clear();
}
