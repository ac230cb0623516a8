/**
 * A body that is not a valid OTLP request of its signal (answered 400), or one that asks for more
 * decoding work than the forwarder takes per request (answered 413, the limit named).
 */
export class OtlpDecodeError extends Error {
  override readonly name = 'OtlpDecodeError';
  /** The HTTP status the request is answered with. */
  readonly statusCode: 400 | 413;

  constructor(message: string, statusCode: 400 | 413 = 400) {
    super(message);
    this.statusCode = statusCode;
  }
}
