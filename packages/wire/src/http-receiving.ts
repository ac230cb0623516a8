/**
 * Receiving a request safely, the same in `@aqm/server` and `@aqm/forwarder`: the charset a JSON
 * body may declare, the time a sender has to deliver a request, and the answer to what Node's HTTP
 * parser refuses before the framework sees a request. Each service writes its own error body.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** The charsets a JSON body may declare: it is read as UTF-8 (RFC 8259; ASCII is a subset). */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * The charset a Content-Type declares when it is not UTF-8 (lower case), to be refused with 415
 * rather than misread; `undefined` when none is declared or it is UTF-8.
 *
 * @example
 * nonUtf8Charset('application/json; charset=UTF-16'); // 'utf-16'
 */
export function nonUtf8Charset(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType)?.[1]?.toLowerCase();
  return charset === undefined || UTF8_CHARSETS.has(charset) ? undefined : charset;
}

/**
 * fastify and Node options that bound the time to receive one request (head and body) to `ms`.
 * fastify's default (0) lets a sender hold a socket forever by never finishing its body
 * (slowloris). Node checks open requests every `connectionsCheckingInterval` (30 s by default), so
 * a shorter timeout is checked as often as it lasts, and at least every second.
 *
 * @example
 * Fastify({ ...receiveTimeouts(30_000) });
 */
export function receiveTimeouts(ms: number): {
  requestTimeout: number;
  http: { requestTimeout: number; headersTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    requestTimeout: ms,
    http: {
      requestTimeout: ms,
      headersTimeout: Math.min(ms, 60_000),
      connectionsCheckingInterval: Math.min(ms, 1000),
    },
  };
}

/**
 * The status for what Node's HTTP parser refused: 408 (not received in time), 431 (headers over
 * its 16 KiB limit) or 400 (not a well-formed request); `undefined` when the connection is gone
 * and nobody is left to answer.
 */
export function clientErrorStatus(error: NodeJS.ErrnoException, socket: Socket): 400 | 408 | 431 | undefined {
  if (error.code === 'ECONNRESET' || socket.destroyed) return undefined;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

/**
 * Writes `body` as the answer straight on the socket (no framework request exists yet) and closes
 * it, as a `clientError` handler must.
 *
 * @example
 * answerOnSocket(socket, error, 408, 'application/json', JSON.stringify({ message: 'too slow' }));
 */
export function answerOnSocket(
  socket: Socket,
  error: Error,
  status: number,
  contentType: string,
  body: string,
): void {
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${contentType}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
