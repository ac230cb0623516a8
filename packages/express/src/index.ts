/**
 * Express middleware (Express 4 and 5) that makes each request an LLM interaction traced to the
 * AQM service: session, user, environment and version on the request's span, optional capture of
 * the prompt and the response, and an error handler that records failures.
 * @packageDocumentation
 */
export { aqmErrorHandler } from './error-handler.js';
export { aqm } from './middleware.js';
export {
  type AqmCaptureOptions,
  type AqmExpressOptions,
  type CapturedBodyKind,
  type CapturedPrompt,
  type CapturedResponseInfo,
  DEFAULT_MAX_CAPTURE_BYTES,
} from './options.js';
export type {
  AqmErrorMiddleware,
  AqmHeaders,
  AqmMiddleware,
  AqmNext,
  AqmRequest,
  AqmResponse,
  PassThroughMethod,
} from './types.js';
