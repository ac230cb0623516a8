import { STATUS_CODES } from 'node:http';
import type { FieldError } from '@aqm/wire';
import {
  AqmApiError,
  AqmAuthenticationError,
  AqmConflictError,
  AqmNotFoundError,
  AqmRateLimitError,
  AqmServerError,
  AqmValidationError,
} from './errors.js';
import { parseRetryAfter } from './retry-after.js';

/** Response headers as undici hands them over. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

const MAX_TEXT_IN_MESSAGE = 200;

/** The service's `message`, or for a non-JSON body a short excerpt of its text. */
function serviceMessage(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
    return body.message;
  }
  if (typeof body === 'string' && body.trim() !== '') {
    const text = body.trim().replace(/\s+/g, ' ');
    return text.length > MAX_TEXT_IN_MESSAGE ? `${text.slice(0, MAX_TEXT_IN_MESSAGE)}…` : text;
  }
  return undefined;
}

function isFieldError(e: unknown): e is FieldError {
  return (
    typeof e === 'object' &&
    e !== null &&
    'path' in e &&
    typeof e.path === 'string' &&
    'message' in e &&
    typeof e.message === 'string'
  );
}

/** The spec's `errors[]` of a 400 body, keeping only well-formed entries. */
function fieldErrorsOf(body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null || !('errors' in body) || !Array.isArray(body.errors))
    return [];
  return (body.errors as unknown[]).filter(isFieldError);
}

/**
 * Maps an error response to its error class (400 → {@link AqmValidationError}, 401 →
 * {@link AqmAuthenticationError}, 404 → {@link AqmNotFoundError}, 409 → {@link AqmConflictError},
 * 429 → {@link AqmRateLimitError}, 5xx → {@link AqmServerError}, anything else → {@link AqmApiError}).
 * The message names the status, the request and the service's own `message`.
 * @param body - the parsed JSON body, the raw text when it was not JSON, or `undefined` when empty
 * @param path - the request path relative to the base URL, without the query string
 * @example
 * ```ts
 * const err = errorFromResponse(404, { success: false, message: 'Application not found' }, {}, 'GET', '/applications/x');
 * err instanceof AqmNotFoundError; // true
 * ```
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: ResponseHeaders,
  method: string,
  path: string,
): AqmApiError {
  const said =
    serviceMessage(body) ?? (body === undefined ? 'empty response body' : 'no message in the response');
  const head = `${status} ${STATUS_CODES[status] ?? 'Unknown Status'} on ${method} ${path}: ${said}`;
  const details = { status, method, path, body };
  if (status === 400) {
    const errors = fieldErrorsOf(body);
    const list = errors.map((e) => `${e.path} ${e.message}`).join('; ');
    return new AqmValidationError(list === '' ? head : `${head} (${list})`, { ...details, errors });
  }
  if (status === 401) {
    return new AqmAuthenticationError(
      `${head}. Check the API key (the apiKey option or the AQM_API_KEY environment variable).`,
      details,
    );
  }
  if (status === 404) {
    return new AqmNotFoundError(
      `${head}. The resource does not exist or this API key cannot access it.`,
      details,
    );
  }
  if (status === 409) return new AqmConflictError(head, details);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headers['retry-after']);
    const hint = retryAfterMs === undefined ? '' : ` (the service asked to retry after ${retryAfterMs} ms)`;
    return new AqmRateLimitError(`${head}${hint}`, { ...details, retryAfterMs });
  }
  if (status >= 500 && status <= 599) return new AqmServerError(head, details);
  return new AqmApiError(head, details);
}
