import type { Dispatcher } from 'undici';
import { normalizeBaseUrl } from './base-url.js';
import { checkBoolean, checkNonEmptyString, checkNumber, describeValue, isPlainObject } from './checks.js';
import { userAgentHeader } from './version.js';

/** Options of {@link AqmClient}. Every option is checked in the constructor. */
export interface AqmClientOptions {
  /** API key sent as `x-api-key`. Default: the `AQM_API_KEY` environment variable. */
  apiKey?: string | undefined;
  /**
   * The service's `{base_url}`, including its path prefix, e.g. `http://127.0.0.1:4000/api`
   * (a trailing slash is tolerated). Default: the `AQM_BASE_URL` environment variable.
   */
  baseUrl?: string | undefined;
  /** Time limit of each attempt, in milliseconds. Default 30000. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt, for requests that are safe to repeat. Default 2. */
  maxRetries?: number | undefined;
  /** Upper bound of the first backoff delay, in milliseconds; it doubles per retry. Default 500. */
  initialRetryDelayMs?: number | undefined;
  /** Cap of any backoff delay, in milliseconds. Default 8000. */
  maxRetryDelayMs?: number | undefined;
  /**
   * The longest `Retry-After` a call waits out, in milliseconds. When the service asks for longer,
   * the call fails at once with `AqmRateLimitError` (its `retryAfterMs` says how long) rather
   * than blocking its caller. Default 60000.
   */
  maxRetryAfterMs?: number | undefined;
  /** Allow plain `http:` to a host other than loopback (the API key travels unencrypted). Default false. */
  allowInsecureHttp?: boolean | undefined;
  /** Extra headers sent with every request (not `x-api-key`, `accept`, `content-type`, `user-agent`, ...). */
  headers?: Record<string, string> | undefined;
  /**
   * An undici Dispatcher to send requests through instead of the client's own keep-alive Agent
   * (e.g. a `MockAgent` or a proxy agent). The client never closes a dispatcher it did not create.
   * Without one, the client honours `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (and their lowercase
   * forms); with one, those variables are left to it.
   */
  dispatcher?: Dispatcher | undefined;
  /** Put in front of the client's own `user-agent` (`aqm-js/<version> node/<version>`). */
  userAgent?: string | undefined;
}

/** Per-call options, the optional last argument of every resource method. */
export interface RequestOptions {
  /** Aborts the call, including a retry wait; the call then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Time limit of each attempt of this call, in milliseconds (overrides the client's). */
  timeoutMs?: number | undefined;
  /** Retries of this call (overrides the client's). */
  maxRetries?: number | undefined;
}

/** The client's options after defaults and checks. */
export interface ResolvedClientOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
  maxRetryAfterMs: number;
  headers: Record<string, string>;
  dispatcher: Dispatcher | undefined;
  userAgent: string;
}

/** Defaults of the numeric options (documented in the README). */
export const DEFAULTS = {
  timeoutMs: 30_000,
  maxRetries: 2,
  initialRetryDelayMs: 500,
  maxRetryDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
} as const;

const CLIENT_OPTION_NAMES = new Set([
  'apiKey',
  'baseUrl',
  'timeoutMs',
  'maxRetries',
  'initialRetryDelayMs',
  'maxRetryDelayMs',
  'maxRetryAfterMs',
  'allowInsecureHttp',
  'headers',
  'dispatcher',
  'userAgent',
]);
const REQUEST_OPTION_NAMES = new Set(['signal', 'timeoutMs', 'maxRetries']);

/** Headers the client sets itself; letting `headers` override them would break requests or leak keys. */
const RESERVED_HEADERS = new Set([
  'x-api-key',
  'accept',
  'content-type',
  'content-length',
  'user-agent',
  'host',
  'connection',
  'transfer-encoding',
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function checkKnownKeys(what: string, value: Record<string, unknown>, known: Set<string>): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) {
      throw new TypeError(`Unknown ${what} "${key}"; expected one of ${[...known].join(', ')}`);
    }
  }
}

function checkHeaders(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    throw new TypeError(
      `headers must be an object of header names to string values, got ${describeValue(value)}`,
    );
  }
  const out: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(value)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name))
      throw new TypeError(`headers: ${JSON.stringify(name)} is not a valid header name`);
    if (RESERVED_HEADERS.has(lower)) {
      const hint =
        lower === 'x-api-key' ? 'use the apiKey option' : lower === 'user-agent' ? 'use userAgent' : '';
      throw new TypeError(
        `headers: "${lower}" is set by the client and cannot be overridden${hint ? `; ${hint}` : ''}`,
      );
    }
    // Values are not echoed: a custom header may carry a secret.
    if (typeof headerValue !== 'string' || /[\r\n\0]/.test(headerValue)) {
      throw new TypeError(
        `headers: the value of "${lower}" must be a string without CR, LF or NUL characters`,
      );
    }
    out[lower] = headerValue;
  }
  return out;
}

function checkDispatcher(value: unknown): Dispatcher | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { dispatch?: unknown }).dispatch !== 'function'
  ) {
    throw new TypeError(
      `dispatcher must be an undici Dispatcher (Agent, Pool, MockAgent...), got ${describeValue(value)}`,
    );
  }
  return value as Dispatcher;
}

function checkUserAgent(value: unknown): string {
  const userAgent = checkNonEmptyString('userAgent', value);
  if (/[\r\n\0]/.test(userAgent)) {
    throw new TypeError(
      `userAgent must not contain CR, LF or NUL characters, got ${describeValue(userAgent)}`,
    );
  }
  return userAgent;
}

function resolveApiKey(value: unknown, env: NodeJS.ProcessEnv): string {
  const key = value === undefined ? env.AQM_API_KEY : value;
  if (key === undefined || key === '') {
    throw new TypeError(
      'apiKey is required: pass { apiKey } to new AqmClient() or set the AQM_API_KEY environment variable',
    );
  }
  // The key's value never appears in a message, only its type.
  if (typeof key !== 'string' || key.trim() === '' || /[\r\n\0]/.test(key)) {
    throw new TypeError(`apiKey must be a non-empty string without line breaks, got a ${typeof key}`);
  }
  return key;
}

function resolveBaseUrl(value: unknown, env: NodeJS.ProcessEnv, allowInsecureHttp: boolean): string {
  const raw = value === undefined ? env.AQM_BASE_URL : value;
  if (raw === undefined || raw === '') {
    throw new TypeError(
      'baseUrl is required: pass { baseUrl } (e.g. "http://127.0.0.1:4000/api") or set the AQM_BASE_URL environment variable',
    );
  }
  if (value !== undefined) return normalizeBaseUrl(raw, allowInsecureHttp);
  try {
    return normalizeBaseUrl(raw, allowInsecureHttp);
  } catch (error) {
    // Named, so that the one line says which variable to fix.
    throw new TypeError(`${(error as Error).message} (from the AQM_BASE_URL environment variable)`);
  }
}

/** Applies defaults (including `AQM_API_KEY` / `AQM_BASE_URL` from `env`) and checks every option. */
export function resolveClientOptions(
  options: unknown = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedClientOptions {
  if (!isPlainObject(options)) {
    throw new TypeError(`AqmClient options must be an object, got ${describeValue(options)}`);
  }
  checkKnownKeys('AqmClient option', options, CLIENT_OPTION_NAMES);
  const allowInsecureHttp =
    options.allowInsecureHttp === undefined
      ? false
      : checkBoolean('allowInsecureHttp', options.allowInsecureHttp);
  const number = (name: keyof typeof DEFAULTS, spec: Parameters<typeof checkNumber>[2]) =>
    options[name] === undefined ? DEFAULTS[name] : checkNumber(name, options[name], spec);
  return {
    apiKey: resolveApiKey(options.apiKey, env),
    baseUrl: resolveBaseUrl(options.baseUrl, env, allowInsecureHttp),
    timeoutMs: number('timeoutMs', { min: 0, exclusiveMin: true }),
    maxRetries: number('maxRetries', { min: 0, integer: true }),
    initialRetryDelayMs: number('initialRetryDelayMs', { min: 0 }),
    maxRetryDelayMs: number('maxRetryDelayMs', { min: 0 }),
    maxRetryAfterMs: number('maxRetryAfterMs', { min: 0 }),
    headers: checkHeaders(options.headers),
    dispatcher: checkDispatcher(options.dispatcher),
    userAgent: userAgentHeader(
      options.userAgent === undefined ? undefined : checkUserAgent(options.userAgent),
    ),
  };
}

/** The effective settings of one call. */
export interface CallSettings {
  signal: AbortSignal | undefined;
  timeoutMs: number;
  maxRetries: number;
}

/** Checks a call's {@link RequestOptions} and fills the rest from the client's options. */
export function resolveRequestOptions(options: unknown, client: ResolvedClientOptions): CallSettings {
  if (options === undefined)
    return { signal: undefined, timeoutMs: client.timeoutMs, maxRetries: client.maxRetries };
  if (!isPlainObject(options)) {
    throw new TypeError(`request options must be an object, got ${describeValue(options)}`);
  }
  checkKnownKeys('request option', options, REQUEST_OPTION_NAMES);
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`signal must be an AbortSignal, got ${describeValue(signal)}`);
  }
  return {
    signal,
    timeoutMs:
      options.timeoutMs === undefined
        ? client.timeoutMs
        : checkNumber('timeoutMs', options.timeoutMs, { min: 0, exclusiveMin: true }),
    maxRetries:
      options.maxRetries === undefined
        ? client.maxRetries
        : checkNumber('maxRetries', options.maxRetries, { min: 0, integer: true }),
  };
}
