import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { encodeStatus } from '../otlp/otlp-codec.js';
import { rpcCodeOf } from './http-error.js';

/**
 * Answers what Node's HTTP parser refuses before fastify sees a request (a request not received
 * within `receiveTimeoutMs` → 408, headers over 16 KiB → 431, a malformed request → 400) with a
 * `google.rpc.Status` in OTLP/JSON, as the forwarder's other refusals; fastify's default writes
 * `{"error": ...}`. JSON because the request's Content-Type may not have been read yet.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status: number;
  let message: string;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'The request was not received in time (receiveTimeoutMs)';
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = 'Request header fields are larger than the limit of 16 KiB';
  } else {
    status = 400;
    message = 'The request is not a well-formed HTTP request';
  }
  const body = encodeStatus('json', rpcCodeOf(status), message) as string;
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
