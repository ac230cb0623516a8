import type { IncomingMessage, ServerResponse } from 'node:http';

/** The largest request body accepted; bigger ones are answered 413. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** An error answered with an HTTP status (in the calling API's error shape). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** OpenAI `error.type` / Anthropic `error.type`. */
    readonly kind: 'invalid_request_error' | 'not_found_error' | 'request_too_large' | 'api_error',
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Reads the whole body as text; rejects with a 413 `HttpError` beyond {@link MAX_BODY_BYTES}. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        reject(new HttpError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`, 'request_too_large'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (error) => {
      if (!failed) reject(error);
    });
    // A client that goes away mid-body ends neither with 'end' nor always with 'error'.
    req.on('close', () => {
      if (!req.complete && !failed)
        reject(new HttpError(400, 'the request body was cut off', 'invalid_request_error'));
    });
  });
}

/** Parses a JSON body; a 400 `HttpError` names the problem. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '')
    throw new HttpError(400, 'request body must be JSON, got an empty body', 'invalid_request_error');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(
      400,
      `request body must be valid JSON: ${(error as Error).message}`,
      'invalid_request_error',
    );
  }
}

/** Sends a JSON answer (nothing when the response is already gone). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': `req_fake_${Date.now().toString(36)}`,
  });
  res.end(text);
}
