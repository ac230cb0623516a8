import type { Socket } from 'node:net';
import { answerOnSocket, clientErrorStatus } from '@aqm/wire';
import { encodeStatus } from '../otlp/otlp-codec.js';
import { rpcCodeOf } from './http-error.js';

/**
 * Answers what Node's HTTP parser refuses before fastify sees a request (a request not received
 * within `receiveTimeoutMs` → 408, headers over 16 KiB → 431, a malformed request → 400) with a
 * `google.rpc.Status` in OTLP/JSON, as the forwarder's other refusals; fastify's default writes
 * `{"error": ...}`. JSON because the request's Content-Type may not have been read yet. Returns the
 * status answered, `undefined` when the socket could not be answered.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): number | undefined {
  const status = clientErrorStatus(error, socket);
  if (status === undefined) return undefined;
  const writable = socket.writable;
  const message =
    status === 408
      ? 'The request was not received in time (receiveTimeoutMs)'
      : status === 431
        ? 'Request header fields are larger than the limit of 16 KiB'
        : 'The request is not a well-formed HTTP request';
  answerOnSocket(
    socket,
    error,
    status,
    'application/json',
    encodeStatus('json', rpcCodeOf(status), message) as string,
  );
  return writable ? status : undefined;
}
