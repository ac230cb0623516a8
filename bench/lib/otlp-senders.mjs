// One attempt at sending a prepared OTLP trace request, over OTLP/HTTP protobuf (node:http with a
// keep-alive agent: undici is not a dependency of the root package) or OTLP/gRPC (@grpc/grpc-js, one
// insecure channel), sorted as a Collector's exporter sorts the answer: `ok`, `retry` (HTTP
// 429/502/503/504, gRPC UNAVAILABLE/RESOURCE_EXHAUSTED, a broken connection; with the delay the
// answer asked for, if any) or `fail` (anything else: not sent again).
import http from 'node:http';
import grpc from '@grpc/grpc-js';
import { rejectedSpans, retryInfoDelayMs, statusMessage } from './otlp-requests.mjs';

/** One attempt's longest wait for an answer: a hung request then counts as a broken connection. */
const ATTEMPT_TIMEOUT_MS = 30_000;
const RETRY_HTTP = new Set([429, 502, 503, 504]);

/**
 * @typedef {{ outcome: 'ok' | 'retry' | 'fail', code: string, delayMs?: number, rejectedSpans: number,
 *   message: string }} Attempt
 */

/** `Retry-After`: whole seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(header) {
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * POSTs to `${url}/v1/traces` with at most `sockets` connections (one per consumer).
 * @returns {{ attempt(body: Buffer): Promise<Attempt>, close(): void }}
 */
export function httpSender(url, sockets) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const target = new URL('/v1/traces', url);
  return {
    attempt(body) {
      return new Promise((resolve) => {
        const request = http.request(target, {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/x-protobuf', 'content-length': body.length },
        });
        request.setTimeout(ATTEMPT_TIMEOUT_MS, () => request.destroy(new Error('no answer in time')));
        request.on('error', (error) =>
          resolve({ outcome: 'retry', code: 'network', rejectedSpans: 0, message: error.message }),
        );
        request.on('response', (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('error', (error) =>
            resolve({ outcome: 'retry', code: 'network', rejectedSpans: 0, message: error.message }),
          );
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            const answer = Buffer.concat(chunks);
            const code = String(status);
            if (status >= 200 && status < 300) {
              const partial = rejectedSpans(answer);
              resolve({ outcome: 'ok', code, rejectedSpans: partial.spans, message: partial.message });
            } else {
              resolve({
                outcome: RETRY_HTTP.has(status) ? 'retry' : 'fail',
                code,
                delayMs: retryAfterMs(response.headers['retry-after']),
                rejectedSpans: 0,
                message: statusMessage(answer, response.headers['content-type']).slice(0, 300),
              });
            }
          });
        });
        request.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

const EXPORT = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const identity = (buffer) => buffer;

/**
 * Calls TraceService/Export on one channel to `url` (`http://host:port`), the body as it is.
 * @returns {{ attempt(body: Buffer): Promise<Attempt>, close(): void }}
 */
export function grpcSender(url) {
  const client = new grpc.Client(new URL(url).host, grpc.credentials.createInsecure());
  return {
    attempt(body) {
      return new Promise((resolve) => {
        const deadline = Date.now() + ATTEMPT_TIMEOUT_MS;
        client.makeUnaryRequest(
          EXPORT,
          identity,
          identity,
          body,
          new grpc.Metadata(),
          { deadline },
          (error, answer) => {
            if (!error) {
              const partial = rejectedSpans(answer);
              resolve({ outcome: 'ok', code: 'OK', rejectedSpans: partial.spans, message: partial.message });
              return;
            }
            const retry =
              error.code === grpc.status.UNAVAILABLE || error.code === grpc.status.RESOURCE_EXHAUSTED;
            resolve({
              outcome: retry ? 'retry' : 'fail',
              code: grpc.status[error.code] ?? String(error.code),
              delayMs: retryInfoDelayMs(error.metadata?.get('grpc-status-details-bin')[0]),
              rejectedSpans: 0,
              message: error.details ?? error.message,
            });
          },
        );
      });
    },
    close: () => client.close(),
  };
}
