import type { FieldError } from '@aqm/wire';

/** What every {@link AqmError} records about the request that failed. */
export interface AqmErrorDetails {
  /** HTTP status of the response; absent when no response arrived. */
  status?: number | undefined;
  /** HTTP method of the request, e.g. `GET`. */
  method: string;
  /** Request path relative to the base URL, without the query string, e.g. `/applications/42`. */
  path: string;
  /** The parsed response body (JSON, or the text when it was not JSON). */
  body?: unknown;
  /** The underlying error, for connection failures. */
  cause?: unknown;
}

/**
 * Base class of every error the client throws for a request. Catch it to handle any failure of
 * the service or of the client's own checks; use the subclasses to tell the outcomes apart.
 * @example
 * ```ts
 * try {
 *   await client.applications.get(id);
 * } catch (err) {
 *   if (err instanceof AqmError) console.error(err.status, err.method, err.path, err.message);
 * }
 * ```
 */
export class AqmError extends Error {
  override name = 'AqmError';
  /** HTTP status of the response, or `undefined` when there was none (connection, timeout, input). */
  readonly status: number | undefined;
  /** HTTP method of the request. */
  readonly method: string;
  /** Request path relative to the base URL, without the query string. */
  readonly path: string;
  /** The parsed response body, when a response with a body arrived. */
  declare readonly body?: unknown;

  constructor(message: string, details: AqmErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    if (details.body !== undefined) this.body = details.body;
  }
}

/**
 * The service answered with an error status. Thrown as is for statuses without a class of their
 * own (e.g. 413); the status-specific classes below extend it.
 */
export class AqmApiError extends AqmError {
  override name = 'AqmApiError';
  declare readonly status: number;

  constructor(message: string, details: AqmErrorDetails & { status: number }) {
    super(message, details);
  }
}

/** 400: the service rejected the body or query. `errors` lists each invalid field (`path`, `message`). */
export class AqmValidationError extends AqmApiError {
  override name = 'AqmValidationError';
  /** The spec's `errors[]`: JSON paths such as `metrics[1].type` (root `$`) and why each failed. */
  readonly errors: FieldError[];

  constructor(message: string, details: AqmErrorDetails & { status: number; errors: FieldError[] }) {
    super(message, details);
    this.errors = details.errors;
  }
}

/** 401: the API key is missing, invalid or revoked. */
export class AqmAuthenticationError extends AqmApiError {
  override name = 'AqmAuthenticationError';
}

/** 404: the resource does not exist or the API key cannot access it. */
export class AqmNotFoundError extends AqmApiError {
  override name = 'AqmNotFoundError';
}

/** 409: the change conflicts with existing data (e.g. an application name already used in the project). */
export class AqmConflictError extends AqmApiError {
  override name = 'AqmConflictError';
}

/** 429: too many requests. `retryAfterMs` is the wait the service asked for (`Retry-After`), if any. */
export class AqmRateLimitError extends AqmApiError {
  override name = 'AqmRateLimitError';
  /** Milliseconds the service asked the client to wait, from `Retry-After`; `undefined` when absent. */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    details: AqmErrorDetails & { status: number; retryAfterMs: number | undefined },
  ) {
    super(message, details);
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** 5xx: the service failed. 502, 503 and 504 are retried on retryable requests. */
export class AqmServerError extends AqmApiError {
  override name = 'AqmServerError';
}

/** No response: the connection could not be made or broke (reset, refused, DNS). `cause` holds why. */
export class AqmConnectionError extends AqmError {
  override name = 'AqmConnectionError';
  declare readonly status: undefined;
}

/** No response within `timeoutMs` (per attempt). */
export class AqmTimeoutError extends AqmConnectionError {
  override name = 'AqmTimeoutError';
  /** The per-attempt limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;

  constructor(message: string, details: AqmErrorDetails & { timeoutMs: number }) {
    super(message, details);
    this.timeoutMs = details.timeoutMs;
  }
}

/**
 * A client-side check failed before the request was sent: a page out of range, an end before its
 * start, a missing path parameter, an invalid Date. `errors` names each offending parameter.
 */
export class AqmInputError extends AqmError {
  override name = 'AqmInputError';
  declare readonly status: undefined;
  /** One entry per invalid parameter: its path (e.g. `limit`, `traces[0].traceId`) and why. */
  readonly errors: FieldError[];

  constructor(message: string, details: AqmErrorDetails & { errors: FieldError[] }) {
    super(message, details);
    this.errors = details.errors;
  }
}
