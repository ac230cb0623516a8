import type { AqmClient } from '@aqm/client';
import type { EvaluationTrace } from '@aqm/wire';
import { MAX_BODY_BYTES, MAX_TRACES_PER_SUBMISSION } from '@aqm/wire/light';
import { type Env, EnvironmentConfigError, resolveConnection } from './connection-options.js';
import { readEnvKnobs } from './env-knobs.js';
import { resolveFlushTimeout } from './flush-options.js';
import {
  booleanOption,
  describeValue,
  functionOption,
  integerOption,
  rangeOption,
  stringOption,
} from './option-checks.js';
import { type PersistOptions, resolvePersistOptions } from './persist-options.js';
import type { MaskFunction } from './privacy/mask.js';

/**
 * Options of {@link AqmSpanExporter}, {@link AqmSpanProcessor} and {@link registerAqm}. Every
 * option is optional: the connection comes from `AQM_API_KEY`, `AQM_BASE_URL` and
 * `AQM_APPLICATION_ID` when not given, and each knob has a default. Each value passed here is
 * checked at construction, and a bad one throws an error naming it. Settings missing from the
 * environment (or unusable there) never throw: the component turns itself off with one warning.
 */
export interface AqmOtelOptions {
  /** API key sent as `x-api-key`. Default: `AQM_API_KEY`. Never logged. */
  apiKey?: string | undefined;
  /** The service's base address, with its path prefix. Default: `AQM_BASE_URL`. */
  baseUrl?: string | undefined;
  /**
   * The application (UUID) the traces belong to. Default: `AQM_APPLICATION_ID`. May be a promise,
   * for an id looked up at startup (`@aqm/auto` finds the application by name): spans are assembled
   * and queued meanwhile and the first request waits for it. When it rejects or resolves to
   * something other than a UUID, the traces are dropped (reason `failed`) and `diag` says why.
   *
   * May also be a lookup function ({@link ApplicationIdLookup}), for an id found by name that the
   * service may not be able to give yet: it is called when a request needs the id, and its
   * failures are handled as the service's answers to a send (see {@link ApplicationIdLookup}).
   */
  applicationId?: string | PromiseLike<string> | ApplicationIdLookup | undefined;
  /** An {@link AqmClient} to send with instead of one built from `apiKey`/`baseUrl`. It is not closed by `shutdown()`. */
  client?: AqmClient | undefined;
  /** Allow a plain `http:` base address that is not loopback (passed to the client). Default `false`. */
  allowInsecureHttp?: boolean | undefined;
  /** Requests in flight at once. Default 2. */
  concurrency?: number | undefined;
  /** Traces per request, 1..100. Default 100. */
  maxBatchTraces?: number | undefined;
  /** Bytes of JSON per request, up to 5 MiB. Default 1 MiB. */
  maxBatchBytes?: number | undefined;
  /**
   * Longest a trace waits for others to fill its request (`maxBatchTraces`/`maxBatchBytes`), in ms,
   * 0..60000. A full batch goes at once, and so does everything on `forceFlush()`, `shutdown()`
   * and what `AqmSpanExporter.export()` waits for. 0 sends whatever is waiting as soon as a
   * request slot is free. Default 200.
   */
  batchDelayMs?: number | undefined;
  /** Traces held (queued and in flight) before new ones are dropped. Default 2048. */
  maxQueueTraces?: number | undefined;
  /** Bytes of JSON held (queued and in flight) before new traces are dropped. Default 32 MiB. */
  maxQueueBytes?: number | undefined;
  /** How long one batch is retried on failures that may pass (outage, 429, 5xx). Default 300000 (5 min). */
  maxRetryElapsedMs?: number | undefined;
  /** Timeout of one HTTP request. Default 10000. */
  requestTimeoutMs?: number | undefined;
  /** How long `AqmSpanExporter.export()` waits for delivery before calling back. Default 25000. */
  exportTimeoutMs?: number | undefined;
  /** A trace whose root has not ended is complete after this long without a new span. Default 5000. */
  traceIdleMs?: number | undefined;
  /** A trace is complete when it reaches this many spans. Default 1000. */
  maxSpansPerTrace?: number | undefined;
  /** Traces assembled at once; past this the oldest is sent as it is. Default 1000. */
  maxOpenTraces?: number | undefined;
  /** Longest text value sent; longer ones are cut with a visible marker. Default 32768. */
  maxValueChars?: number | undefined;
  /** How long `shutdown()` may take, even when the service hangs. Default 10000. */
  shutdownTimeoutMs?: number | undefined;
  /**
   * Longest `forceFlush()` waits, in ms, 1..600000. At this bound what is still held is written to
   * `persistDir` (in the last quarter of the bound, at most 1 s) or, without one, stays queued in
   * memory (lost if the process exits first), and a warning says which; `forceFlush()` then
   * resolves (it never rejects). Default: `AQM_FLUSH_TIMEOUT_MS`, else 30000 (the SDK's export timeout).
   */
  flushTimeoutMs?: number | undefined;
  /** `environment` of every trace. Default: `AQM_ENVIRONMENT`, else the resource's `deployment.environment.name`. */
  environment?: string | undefined;
  /** `appVersion` of every trace. Default: `AQM_APP_VERSION`, else the resource's `service.version`. */
  appVersion?: string | undefined;
  /** Rewrites every text value before it leaves the process (e.g. `maskPII`). A throwing mask blanks the value. */
  mask?: MaskFunction | undefined;
  /** Share of traces sent, 0..1, decided by trace id. Default: `AQM_SAMPLE_RATE`, else 1. */
  sampleRate?: number | undefined;
  /** Last say on each record: `false` keeps it from being sent. A throwing predicate keeps the record. */
  shouldExport?: (record: EvaluationTrace) => boolean | undefined;
  /**
   * A folder where traces the service has not accepted are kept on disk instead of being dropped
   * (a full memory queue, a batch whose retry time ran out, what is left at shutdown), and sent
   * from there, oldest first, once the service answers, by this or the next process using the
   * folder. Default: `AQM_PERSIST_DIR`; off when unset. See the README's "Durable delivery".
   */
  persistDir?: string | undefined;
  /** Bytes of spill files `persistDir` may hold; past it the oldest files are deleted. Default 256 MiB. */
  maxDiskBytes?: number | undefined;
  /**
   * For AWS Lambda, Vercel/Next.js functions and other runtimes that freeze the process once a
   * request is answered: no timer sends or completes anything, so nothing is left half done when
   * the process freezes. Traces wait for `forceFlush()` (call it once per invocation, e.g. through
   * `withAqmFlush`, or `waitUntil(processor.forceFlush())`), which completes them all and sends
   * them in as few requests as `maxBatchTraces`/`maxBatchBytes` allow (one for up to 100 traces);
   * `batchDelayMs` and `traceIdleMs` are not used. A batch that fills up still goes at once.
   * Without a flush nothing is sent until the next one. Default: `AQM_SERVERLESS`, else `false`.
   * See the README's "Serverless".
   */
  serverless?: boolean | undefined;
  /**
   * How `persistDir` is used. `'overflow'` (default): memory first, the disk takes what memory
   * cannot keep; a kill -9 or an OOM kill loses what memory holds. `'write-ahead'`: each trace is
   * written to a log in `persistDir` before it counts as accepted and leaves it once delivered;
   * a kill -9 loses nothing accepted (the next process sends it). Default: `AQM_PERSIST_MODE`,
   * else `'overflow'`. See the README's "Durable delivery".
   */
  persistMode?: 'overflow' | 'write-ahead' | undefined;
}

/**
 * Finds the application id when a request needs it and none is known yet (e.g. by the
 * application's name). Called with the request's abort signal and time limit, which it passes on
 * to its own requests (with no retry of its own: the sender retries). Once it resolves, the id is
 * kept. When it rejects, the request is not sent and the rejection is sorted like the answer to a
 * send, so it should reject with the `@aqm/client` error it got: a connection error, a timeout,
 * 429 or 5xx is retried on the sender's backoff and the traces are kept meanwhile (memory, then
 * `persistDir`, as in an outage); 401 or 404 pauses sending (said once, traces kept); another
 * answer drops the batch (said once). Each later request needing the id calls it again.
 *
 * @example
 * const applicationId: ApplicationIdLookup = ({ signal, timeoutMs }) =>
 *   findOrCreateApplication(client, { name: 'support-bot' }, { signal, timeoutMs, maxRetries: 0 });
 */
export type ApplicationIdLookup = (request: { signal: AbortSignal; timeoutMs: number }) => Promise<string>;

/** The options with defaults applied and every value checked. */
export interface ResolvedOptions {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  /** A UUID, a promise of one (checked when it settles), or a lookup (see `AqmOtelOptions.applicationId`). */
  applicationId: string | Promise<string> | ApplicationIdLookup;
  client: AqmClient | undefined;
  allowInsecureHttp: boolean;
  concurrency: number;
  maxBatchTraces: number;
  maxBatchBytes: number;
  batchDelayMs: number;
  maxQueueTraces: number;
  maxQueueBytes: number;
  maxRetryElapsedMs: number;
  requestTimeoutMs: number;
  exportTimeoutMs: number;
  traceIdleMs: number;
  maxSpansPerTrace: number;
  maxOpenTraces: number;
  maxValueChars: number;
  shutdownTimeoutMs: number;
  flushTimeoutMs: number;
  environment: string | undefined;
  appVersion: string | undefined;
  mask: MaskFunction | undefined;
  sampleRate: number;
  shouldExport: ((record: EvaluationTrace) => boolean) | undefined;
  persistDir: PersistOptions['persistDir'];
  maxDiskBytes: number;
  serverless: boolean;
  persistMode: PersistOptions['persistMode'];
}

const MIB = 1024 * 1024;
const KNOWN_OPTIONS = new Set<string>([
  'apiKey',
  'baseUrl',
  'applicationId',
  'client',
  'allowInsecureHttp',
  'concurrency',
  'maxBatchTraces',
  'maxBatchBytes',
  'batchDelayMs',
  'maxQueueTraces',
  'maxQueueBytes',
  'maxRetryElapsedMs',
  'requestTimeoutMs',
  'exportTimeoutMs',
  'traceIdleMs',
  'maxSpansPerTrace',
  'maxOpenTraces',
  'maxValueChars',
  'shutdownTimeoutMs',
  'flushTimeoutMs',
  'environment',
  'appVersion',
  'mask',
  'sampleRate',
  'shouldExport',
  'persistDir',
  'maxDiskBytes',
  'serverless',
  'persistMode',
]);
/** `shutdownTimeoutMs` when not given. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * Checks the options, fills in defaults and the connection settings from the environment.
 * Throws a `TypeError`/`RangeError` naming the first bad option passed in code, or an
 * `EnvironmentConfigError` naming every connection setting the environment lacks or holds in an
 * unusable form; the API key never appears in a message.
 *
 * @example
 * const options = resolveOptions({ concurrency: 4 }, process.env);
 */
export function resolveOptions(raw: AqmOtelOptions = {}, env: Env = process.env): ResolvedOptions {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new TypeError(`Expected the options to be an object, got ${describeValue(raw)}`);
  }
  for (const key of Object.keys(raw)) {
    if (!KNOWN_OPTIONS.has(key)) {
      throw new TypeError(`Unknown option \`${key}\`; known options are ${[...KNOWN_OPTIONS].join(', ')}`);
    }
  }
  // A promised id is marked handled first: if a knob below throws, no pipeline ever awaits it.
  const promisedId = raw.applicationId as { catch?: unknown } | undefined;
  if (typeof promisedId?.catch === 'function') (promisedId as Promise<unknown>).catch(() => {});
  // Read now, said later: a bad value passed in code throws first, whatever the environment holds.
  const fromEnv = readEnvKnobs(raw as Record<string, unknown>, env);
  const maxBatchBytes = integerOption('maxBatchBytes', raw.maxBatchBytes, MIB, 1024, MAX_BODY_BYTES);
  // The knobs first: a bad value passed in code throws whatever the environment holds.
  const knobs = {
    allowInsecureHttp: booleanOption('allowInsecureHttp', raw.allowInsecureHttp, false),
    concurrency: integerOption('concurrency', raw.concurrency, 2, 1, 64),
    maxBatchTraces: integerOption(
      'maxBatchTraces',
      raw.maxBatchTraces,
      MAX_TRACES_PER_SUBMISSION,
      1,
      MAX_TRACES_PER_SUBMISSION,
    ),
    maxBatchBytes,
    batchDelayMs: integerOption('batchDelayMs', raw.batchDelayMs, 200, 0, 60_000),
    maxQueueTraces: integerOption('maxQueueTraces', raw.maxQueueTraces, 2048, 1),
    maxQueueBytes: integerOption('maxQueueBytes', raw.maxQueueBytes, 32 * MIB, 1024),
    maxRetryElapsedMs: integerOption('maxRetryElapsedMs', raw.maxRetryElapsedMs, 300_000, 0),
    requestTimeoutMs: integerOption('requestTimeoutMs', raw.requestTimeoutMs, 10_000, 1),
    exportTimeoutMs: integerOption('exportTimeoutMs', raw.exportTimeoutMs, 25_000, 1),
    traceIdleMs: integerOption('traceIdleMs', raw.traceIdleMs, 5000, 1),
    maxSpansPerTrace: integerOption('maxSpansPerTrace', raw.maxSpansPerTrace, 1000, 1),
    maxOpenTraces: integerOption('maxOpenTraces', raw.maxOpenTraces, 1000, 1),
    maxValueChars: integerOption('maxValueChars', raw.maxValueChars, 32_768, 64),
    shutdownTimeoutMs: integerOption(
      'shutdownTimeoutMs',
      raw.shutdownTimeoutMs,
      DEFAULT_SHUTDOWN_TIMEOUT_MS,
      1,
    ),
    environment: stringOption('environment', raw.environment) ?? fromEnv.environment,
    appVersion: stringOption('appVersion', raw.appVersion) ?? fromEnv.appVersion,
    mask: functionOption<MaskFunction>('mask', raw.mask),
    sampleRate: rangeOption('sampleRate', raw.sampleRate, fromEnv.sampleRate ?? 1, 0, 1),
    shouldExport: functionOption<(record: EvaluationTrace) => boolean>('shouldExport', raw.shouldExport),
    serverless: booleanOption('serverless', raw.serverless, fromEnv.serverless ?? false),
    ...resolvePersistOptions(raw, env, fromEnv.persistMode),
  };
  // Passed in code: checked with the knobs. From the environment: after the connection settings, so
  // that their message names every one missing; an unusable value turns the component off too.
  const flushOption = raw.flushTimeoutMs === undefined ? undefined : resolveFlushTimeout(raw, env);
  const connection = withEnvProblems(() => resolveConnection(raw, env), fromEnv.invalid);
  if (fromEnv.invalid.length > 0) throw new EnvironmentConfigError([], fromEnv.invalid);
  return { ...connection, ...knobs, flushTimeoutMs: flushOption ?? resolveFlushTimeout({}, env) };
}

/** Runs `resolve`; what the environment lacks for it and `invalid` are said in one message. */
function withEnvProblems<T>(resolve: () => T, invalid: readonly string[]): T {
  try {
    return resolve();
  } catch (error) {
    if (!(error instanceof EnvironmentConfigError) || invalid.length === 0) throw error;
    throw new EnvironmentConfigError(error.missing, [...error.invalid, ...invalid]);
  }
}
