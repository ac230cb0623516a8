import { type TracerProvider, trace } from '@opentelemetry/api';
import {
  describeValue,
  functionOption,
  headerNameOption,
  integerOption,
  isPlainObject,
  rejectUnknownKeys,
  stringOption,
} from './option-checks.js';
import type { AqmRequest } from './types.js';
import { EXPRESS_PACKAGE_NAME, EXPRESS_PACKAGE_VERSION } from './version.js';

/** A prompt as `capture.prompt` returns it: the user's text, or the chat messages sent to the model. */
export type CapturedPrompt = string | ReadonlyArray<{ role: string; content: string }>;

/** Where the body given to `capture.response` came from. */
export type CapturedBodyKind = 'json' | 'send' | 'stream' | 'sse';

/** What `capture.response` learns about the response besides its body. */
export interface CapturedResponseInfo {
  /**
   * `json`: the value given to `res.json` (or an object given to `res.send`); `send`: the text
   * given to `res.send`; `stream`: the text written with `res.write`/`res.end`; `sse`: the same
   * for a `text/event-stream` response, the body being the concatenated `data:` payloads.
   */
  kind: CapturedBodyKind;
  /** For `sse`: each event's data, in order (multi-line data joined with `\n`). Empty otherwise. */
  events: string[];
  /** Whether the body text was cut at `maxCaptureBytes`. */
  truncated: boolean;
  /** The response's status code. */
  statusCode: number;
}

/** What to record as the request's prompt and response, for endpoints whose model call is not traced. */
export interface AqmCaptureOptions<Req extends AqmRequest = AqmRequest> {
  /**
   * Returns the prompt of the request (a string, or `{ role, content }` messages), or `undefined`
   * to record none. Called once, when the response ends, so a body parser mounted after the
   * middleware has run by then.
   */
  prompt: (req: Req) => CapturedPrompt | undefined | null;
  /**
   * Returns the model's answer from what the handler sent, or `undefined` to record none.
   * Default: the body as text (a `json` value is serialised with `JSON.stringify`).
   */
  response?: ((body: unknown, info: CapturedResponseInfo) => string | undefined | null) | undefined;
}

/** Options of {@link aqm}. All are optional. */
export interface AqmExpressOptions<Req extends AqmRequest = AqmRequest> {
  /** Returns the session id of a request (`session.id`). Default: the `sessionIdHeader` header. */
  sessionId?: ((req: Req) => string | number | undefined | null) | undefined;
  /** Returns the user id of a request (`user.id`). Default: the `userIdHeader` header. */
  userId?: ((req: Req) => string | number | undefined | null) | undefined;
  /** Header read for the session id when `sessionId` is not given. Default `x-session-id`. */
  sessionIdHeader?: string | undefined;
  /** Header read for the user id when `userId` is not given. Default `x-user-id`. */
  userIdHeader?: string | undefined;
  /** Deployment environment, e.g. `production` (`deployment.environment.name`). */
  environment?: string | undefined;
  /** Version of the app (`service.version`). */
  appVersion?: string | undefined;
  /** Records the prompt and the response of the request on its span; see {@link AqmCaptureOptions}. */
  capture?: AqmCaptureOptions<Req> | undefined;
  /** Most bytes of streamed output kept, and longest captured text (in UTF-8 bytes). Default 65536 (64 KiB). */
  maxCaptureBytes?: number | undefined;
  /** Tracer provider of the request spans. Default: the global one (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider | undefined;
}

/** Reads an id from a request; the value is checked where it is used. */
export type IdReader<Req> = (req: Req) => unknown;

/** The capture options, checked. */
export interface ResolvedCapture<Req> {
  prompt: (req: Req) => unknown;
  response: ((body: unknown, info: CapturedResponseInfo) => unknown) | undefined;
}

/** The options with defaults applied and every value checked. */
export interface ResolvedOptions<Req> {
  sessionId: IdReader<Req>;
  userId: IdReader<Req>;
  environment: string | undefined;
  appVersion: string | undefined;
  capture: ResolvedCapture<Req> | undefined;
  maxCaptureBytes: number;
  tracerProvider: TracerProvider | undefined;
}

/** Default of `maxCaptureBytes`: 64 KiB. */
export const DEFAULT_MAX_CAPTURE_BYTES = 64 * 1024;
const MAX_MAX_CAPTURE_BYTES = 16 * 1024 * 1024;
const KNOWN_OPTIONS = [
  'sessionId',
  'userId',
  'sessionIdHeader',
  'userIdHeader',
  'environment',
  'appVersion',
  'capture',
  'maxCaptureBytes',
  'tracerProvider',
] as const;

function headerReader(header: string): IdReader<AqmRequest> {
  return (req) => {
    const value = req.headers[header];
    return Array.isArray(value) ? value[0] : value;
  };
}

function idReader<Req extends AqmRequest>(
  name: 'sessionId' | 'userId',
  fn: unknown,
  headerOption: unknown,
  defaultHeader: string,
): IdReader<Req> {
  const reader = functionOption<IdReader<Req>>(name, fn);
  if (reader !== undefined && headerOption !== undefined) {
    throw new TypeError(
      `\`${name}\` and \`${name}Header\` cannot be combined: give one way to read the ${name}`,
    );
  }
  return reader ?? headerReader(headerNameOption(`${name}Header`, headerOption, defaultHeader));
}

function resolveCapture<Req extends AqmRequest>(value: unknown): ResolvedCapture<Req> | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    throw new TypeError(
      `Expected \`capture\` to be an object like { prompt: (req) => ..., response?: (body) => ... }, got ${describeValue(value)}`,
    );
  }
  rejectUnknownKeys('capture.', value, ['prompt', 'response']);
  if (typeof value.prompt !== 'function') {
    throw new TypeError(
      `Expected \`capture.prompt\` to be a function returning the request's prompt, got ${describeValue(value.prompt)}`,
    );
  }
  return {
    prompt: value.prompt as ResolvedCapture<Req>['prompt'],
    response: functionOption<ResolvedCapture<Req>['response']>('capture.response', value.response),
  };
}

function resolveTracerProvider(value: unknown): TracerProvider | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value) || typeof value.getTracer !== 'function') {
    throw new TypeError(
      `Expected \`tracerProvider\` to be an OpenTelemetry TracerProvider (with getTracer()), got ${describeValue(value)}`,
    );
  }
  return value as unknown as TracerProvider;
}

/**
 * Checks the options of `aqm()` and fills in defaults. Throws a `TypeError`/`RangeError` naming the
 * first bad option, so a mistake shows when the app starts rather than on its first request.
 *
 * @example
 * const options = resolveOptions({ environment: 'production', maxCaptureBytes: 8192 });
 */
export function resolveOptions<Req extends AqmRequest>(
  raw: AqmExpressOptions<Req> = {},
): ResolvedOptions<Req> {
  if (!isPlainObject(raw)) {
    throw new TypeError(`Expected the options of aqm() to be an object, got ${describeValue(raw)}`);
  }
  rejectUnknownKeys('', raw, KNOWN_OPTIONS);
  return {
    sessionId: idReader<Req>('sessionId', raw.sessionId, raw.sessionIdHeader, 'x-session-id'),
    userId: idReader<Req>('userId', raw.userId, raw.userIdHeader, 'x-user-id'),
    environment: stringOption('environment', raw.environment),
    appVersion: stringOption('appVersion', raw.appVersion),
    capture: resolveCapture<Req>(raw.capture),
    maxCaptureBytes: integerOption(
      'maxCaptureBytes',
      raw.maxCaptureBytes,
      DEFAULT_MAX_CAPTURE_BYTES,
      1,
      MAX_MAX_CAPTURE_BYTES,
    ),
    tracerProvider: resolveTracerProvider(raw.tracerProvider),
  };
}

/** The tracer of the request spans: from the given provider, else the global one at call time. */
export function requestTracer(provider: TracerProvider | undefined) {
  return (provider ?? trace.getTracerProvider()).getTracer(EXPRESS_PACKAGE_NAME, EXPRESS_PACKAGE_VERSION);
}
