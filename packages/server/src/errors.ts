import type { Socket } from 'node:net';
import type { FieldError } from '@aqm/wire';
import { answerOnSocket, clientErrorStatus, MAX_BODY_BYTES, nonUtf8Charset } from '@aqm/wire';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** An error that answers with a status and the spec's error envelope (plus `errors[]` for 400). */
export class HttpError extends Error {
  /** HTTP status of the answer. */
  readonly status: number;
  /** The field errors of a validation error (status 400). */
  readonly errors: FieldError[] | undefined;

  constructor(status: number, message: string, errors?: FieldError[]) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.errors = errors;
  }

  /** The body to send. */
  toBody(): { success: false; message: string; errors?: FieldError[] } {
    return this.errors === undefined
      ? { success: false, message: this.message }
      : { success: false, message: this.message, errors: this.errors };
  }
}

/** 400 with the validation envelope; the summary names the first failing field. */
export function validationError(errors: FieldError[]): HttpError {
  const first = errors[0];
  const summary =
    first === undefined
      ? 'Validation failed'
      : `Validation failed: ${first.path} ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`;
  return new HttpError(400, summary, errors);
}

/** 404 for a resource that does not exist or that the key's project cannot see (the two look the same). */
export function notFound(what: string): HttpError {
  return new HttpError(404, `${what} not found`);
}

/** 409 for a name already used in the project. */
export function conflict(message: string): HttpError {
  return new HttpError(409, message);
}

/**
 * The one error handler: every failure leaves as the spec's envelope. Our own `HttpError`s as
 * they are; fastify's body and URL errors mapped (malformed or empty JSON, badly percent-encoded
 * path → 400 at `$`, too large → 413, wrong content type → 415); anything else → 500 without internals.
 */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void {
  const httpError = toHttpError(error, request.headers['content-type']);
  if (httpError.status >= 500) request.log.error({ err: error }, 'request failed');
  void reply.code(httpError.status).send(httpError.toBody());
}

function toHttpError(error: FastifyError | Error, contentType: string | undefined): HttpError {
  if (error instanceof HttpError) return error;
  const code = 'code' in error ? error.code : undefined;
  const statusCode = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new HttpError(413, `Request body is larger than the limit of ${MAX_BODY_BYTES} bytes`);
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new HttpError(
      415,
      `Unsupported Content-Type ${JSON.stringify(contentType ?? '')}: send the body as JSON with Content-Type: application/json`,
    );
  }
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return validationError([{ path: '$', message: 'is required: the JSON body is empty' }]);
  }
  if (code === 'FST_ERR_BAD_URL') {
    return validationError([
      { path: '$', message: 'is not a valid URL: a path segment is badly percent-encoded' },
    ]);
  }
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY')
    return validationError([{ path: '$', message: 'is not valid JSON' }]);
  if (statusCode === 400 && error.name === 'SyntaxError') {
    return validationError([{ path: '$', message: `is not valid JSON (${error.message})` }]);
  }
  if (statusCode === 400) return validationError([{ path: '$', message: error.message }]);
  if (statusCode >= 400 && statusCode < 500) return new HttpError(statusCode, error.message);
  return new HttpError(500, 'Internal server error');
}

/**
 * Answers what Node's HTTP parser refuses before fastify sees a request (headers over the 16 KiB
 * limit → 431, a head too slow → 408, a malformed request → 400) with the error envelope, as
 * every other answer; fastify's default writes `{"error": ...}`.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const status = clientErrorStatus(error, socket);
  if (status === undefined) return;
  const answer =
    status === 431
      ? new HttpError(431, 'Request header fields are larger than the limit of 16 KiB')
      : status === 408
        ? new HttpError(408, 'The request was not received in time')
        : validationError([{ path: '$', message: 'is not a well-formed HTTP request' }]);
  answerOnSocket(socket, error, status, 'application/json; charset=utf-8', JSON.stringify(answer.toBody()));
}

/**
 * The `preParsing` check of a body's declared charset: JSON is read as UTF-8 (RFC 8259), so a
 * body declared in another charset (`charset=utf-16`) is refused with 415 rather than misread.
 */
export function checkBodyCharset(request: FastifyRequest): void {
  const charset = nonUtf8Charset(request.headers['content-type']);
  if (charset === undefined) return;
  throw new HttpError(
    415,
    `Unsupported charset ${JSON.stringify(charset)}: send JSON bodies as UTF-8 (Content-Type: application/json; charset=utf-8)`,
  );
}

/**
 * The `preParsing` check of a body's `Content-Encoding`: bodies are read as they come, so a
 * compressed body is refused with 415 naming the encoding, rather than answered "not valid JSON"
 * (gzip) or, labelled compressed but sent plain, taken as if the label were not there.
 */
export function checkBodyEncoding(request: FastifyRequest): void {
  const encoding = request.headers['content-encoding'];
  if (encoding === undefined) return;
  const name = encoding.trim().toLowerCase();
  if (name === '' || name === 'identity') return;
  throw new HttpError(
    415,
    `Unsupported Content-Encoding ${JSON.stringify(encoding)}: send the JSON body uncompressed (no Content-Encoding)`,
  );
}

/** The envelope of an unknown route. */
export function handleNotFound(request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(404).send({ success: false, message: `Route ${request.method} ${request.url} not found` });
}
