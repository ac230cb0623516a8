import { type Exception, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from './attributes.js';
import { expressDiag } from './diag.js';
import { requestStateOf } from './request-state.js';
import type { AqmErrorMiddleware, AqmRequest } from './types.js';

/** Renders any thrown value as text without throwing (`String()` throws for some objects). */
function safeText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** The exception to record, its message and its `error.type`. */
function describeError(error: unknown): { exception: Exception; message: string; type: string } {
  if (error instanceof Error) {
    return {
      exception: error,
      message: error.message,
      type: error.name || error.constructor.name || 'Error',
    };
  }
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  ) {
    const { message, name } = error as { message: string; name?: unknown };
    const type = typeof name === 'string' && name !== '' ? name : '_OTHER';
    return { exception: { message, name: type }, message, type };
  }
  const message = safeText(error);
  return { exception: message, message, type: '_OTHER' };
}

/** Records `error` on the request span: exception event, `error.type`, status ERROR with its message. */
function recordRequestError(req: AqmRequest, error: unknown): void {
  const state = requestStateOf(req);
  // Without `aqm()` on this request, the active span is the best guess at the request's span.
  const span = state?.span ?? trace.getActiveSpan();
  if (span === undefined || !span.isRecording()) return;
  const { exception, message, type } = describeError(error);
  span.recordException(exception);
  span.setAttribute(ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  if (state !== undefined) state.errorRecorded = true;
}

/**
 * Express error handler that records a handler's failure as the error status of the request's
 * trace (`recordException` + status ERROR with the error's message, and `error.type`) on the span
 * of `aqm()`, then passes the error on with `next(err)`, so the app's own error handlers and
 * Express's default still answer. Mount it after the routes and before other error handlers.
 *
 * @example
 * app.use(aqm());
 * app.post('/chat', chat);
 * app.use(aqmErrorHandler());
 * app.use((err, req, res, next) => res.status(500).json({ error: 'something went wrong' }));
 */
export function aqmErrorHandler(): AqmErrorMiddleware;
export function aqmErrorHandler(...misuse: unknown[]): AqmErrorMiddleware {
  // `app.use(aqmErrorHandler)` instead of `app.use(aqmErrorHandler())` would hand us (req, res, next).
  if (misuse.length > 0) {
    throw new TypeError(
      'aqmErrorHandler() takes no arguments and returns the error handler: write app.use(aqmErrorHandler()), not app.use(aqmErrorHandler)',
    );
  }
  // Four parameters: Express recognises an error handler by its arity.
  return function aqmErrorMiddleware(error, req, _res, next) {
    try {
      recordRequestError(req, error);
    } catch (failure) {
      expressDiag.error('recording the request error failed', failure);
    }
    next(error);
  };
}
