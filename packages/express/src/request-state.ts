import type { Span } from '@opentelemetry/api';

/** What the middleware keeps about a request it traces. */
export interface RequestState {
  /** The request span: the one the middleware started, or the server span it found. */
  span: Span;
  /** Whether the middleware started (and so ends) the span. */
  owned: boolean;
  /** Whether `aqmErrorHandler()` already set the error status. */
  errorRecorded: boolean;
}

// Keyed by the request object itself, so nothing is added to `req` and the entry goes with it.
const states = new WeakMap<object, RequestState>();

/** The state of a request traced by the middleware, if any. */
export function requestStateOf(req: object): RequestState | undefined {
  return states.get(req);
}

/** Remembers the state of a request. */
export function setRequestState(req: object, state: RequestState): void {
  states.set(req, state);
}
