/** A `{ path, message }` item of a validation error's `errors[]`. */
export interface OutcomeFieldError {
  path: string;
  message: string;
}

/** What the sender does after a failed request. */
export type SendFailure =
  /** Might pass later: connection error, timeout, 429, 5xx. */
  | { kind: 'retry'; description: string; retryAfterMs?: number }
  /** 413: the body is too large. */
  | { kind: 'too-large'; description: string }
  /** 400, or the client's own input check: some traces are invalid. */
  | { kind: 'rejected'; description: string; errors: OutcomeFieldError[] }
  /** 401 or 404: nothing will pass until the key or the application id is fixed. */
  | { kind: 'pause'; cause: 'unauthorized' | 'not-found'; description: string }
  /** Anything else (409, another 4xx, a bug): retrying will not help. */
  | { kind: 'failed'; description: string };

interface ErrorShape {
  name?: unknown;
  status?: unknown;
  message?: unknown;
  retryAfterMs?: unknown;
  errors?: unknown;
}

function fieldErrorsOf(value: unknown): OutcomeFieldError[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    const { path, message } = (item ?? {}) as { path?: unknown; message?: unknown };
    return typeof path === 'string' ? [{ path, message: typeof message === 'string' ? message : '' }] : [];
  });
}

/**
 * Sorts an error of `@aqm/client` into what the sender should do with the batch. It reads the
 * errors' `name` and `status` rather than using `instanceof`, so it also works with a `client`
 * from another copy of `@aqm/client` (a different version, or the CJS build next to the ESM one).
 */
export function classifyFailure(error: unknown): SendFailure {
  const shape: ErrorShape = typeof error === 'object' && error !== null ? (error as ErrorShape) : {};
  const name = typeof shape.name === 'string' ? shape.name : 'Error';
  const status = typeof shape.status === 'number' ? shape.status : undefined;
  const message = typeof shape.message === 'string' ? shape.message : String(error);
  const description = status === undefined ? `${name}: ${message}` : `${status} ${name}: ${message}`;

  if (name === 'AqmInputError') return { kind: 'rejected', description, errors: fieldErrorsOf(shape.errors) };
  if (name === 'AqmConnectionError' || name === 'AqmTimeoutError') return { kind: 'retry', description };
  if (status === undefined) return { kind: 'failed', description };
  if (status === 429) {
    const retryAfterMs =
      typeof shape.retryAfterMs === 'number' && Number.isFinite(shape.retryAfterMs) && shape.retryAfterMs >= 0
        ? shape.retryAfterMs
        : undefined;
    return retryAfterMs === undefined
      ? { kind: 'retry', description }
      : { kind: 'retry', description, retryAfterMs };
  }
  if (status >= 500 || status === 408) return { kind: 'retry', description };
  if (status === 413) return { kind: 'too-large', description };
  if (status === 400 || status === 422)
    return { kind: 'rejected', description, errors: fieldErrorsOf(shape.errors) };
  if (status === 401) return { kind: 'pause', cause: 'unauthorized', description };
  if (status === 404) return { kind: 'pause', cause: 'not-found', description };
  return { kind: 'failed', description };
}

const TRACE_INDEX = /(?:^|\.)traces\[(\d+)\]/;

/**
 * The batch positions named by `errors[]` paths such as `traces[3].prompt`, or an empty set when
 * no path names a position inside the batch (then the sender finds the bad traces by halving).
 */
export function rejectedPositions(errors: readonly OutcomeFieldError[], batchSize: number): Set<number> {
  const positions = new Set<number>();
  for (const { path } of errors) {
    const match = TRACE_INDEX.exec(path);
    if (match === null) return new Set();
    const index = Number(match[1]);
    if (index >= batchSize) return new Set();
    positions.add(index);
  }
  return positions;
}
