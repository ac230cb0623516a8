/** An answer other than 200, with the OTLP status code and the message sent in its `google.rpc.Status`. */
export class ForwarderHttpError extends Error {
  override readonly name = 'ForwarderHttpError';
  readonly statusCode: number;
  readonly headers: Record<string, string>;

  constructor(statusCode: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.statusCode = statusCode;
    this.headers = headers;
  }
}

/** The `google.rpc.Code` that goes with an HTTP status in the answer's Status body. */
export function rpcCodeOf(statusCode: number): number {
  switch (statusCode) {
    case 400:
    case 413:
    case 415:
    case 431:
      return 3; // INVALID_ARGUMENT
    case 408:
      return 4; // DEADLINE_EXCEEDED
    case 401:
      return 16; // UNAUTHENTICATED
    case 404:
      return 5; // NOT_FOUND
    case 429:
    case 503:
      return 14; // UNAVAILABLE
    default:
      return 13; // INTERNAL
  }
}
