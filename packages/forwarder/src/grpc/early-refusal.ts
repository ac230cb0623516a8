import {
  Metadata,
  ServerInterceptingCall,
  type ServerInterceptingCallInterface,
  type ServerInterceptor,
  type StatusObject,
  status,
} from '@grpc/grpc-js';
import type { IngestTokens } from '../http/ingest-auth.js';
import { retryInfoStatus } from './status-details.js';

const STATUS_NAMES = new Map(Object.entries(status).map(([name, code]) => [code, name]));

/** The name of a status code, as counted: `OK`, `UNAUTHENTICATED`, ... */
export function statusName(code: status): string {
  return STATUS_NAMES.get(code) ?? String(code);
}

/**
 * A refusal: its code and details, and with `retryAfterSeconds` a `grpc-status-details-bin`
 * trailer holding a `google.rpc.RetryInfo` of that delay (what OTLP exporters wait before resending).
 */
export function refusal(code: status, details: string, retryAfterSeconds?: number): StatusObject {
  const metadata = new Metadata();
  if (retryAfterSeconds !== undefined)
    metadata.set('grpc-status-details-bin', retryInfoStatus(code, details, retryAfterSeconds * 1000));
  return { code, details, metadata };
}

export const UNAUTHENTICATED_DETAILS =
  'Missing or unknown ingest token: send the `authorization` metadata `Bearer <token>`';
export const QUEUE_FULL_DETAILS =
  'The forwarder queue is full (the AQM service is slow or unreachable); retry after the RetryInfo delay';

/** The first value of each metadata key the token check reads, as HTTP headers would carry them. */
function authHeaders(metadata: Metadata): Record<string, string | undefined> {
  const first = (key: string) => {
    const [value] = metadata.get(key);
    return typeof value === 'string' ? value : undefined;
  };
  return { authorization: first('authorization'), 'x-api-key': first('x-api-key') };
}

/** What the refusals before the message need. */
export interface EarlyRefusalHandlers {
  tokens: IngestTokens;
  /** The delay a refused sender is told to wait (`RetryInfo`), in seconds. */
  retryAfterSeconds: () => number;
  /** Longest time from a call's metadata to its whole message; past it, `DEADLINE_EXCEEDED`. */
  receiveTimeoutMs: number;
  queueFull(): boolean;
  countQueueFull(): void;
  countResponse(key: string): void;
}

/**
 * Refuses an Export call on its metadata, before its message is read: without an accepted token
 * (`UNAUTHENTICATED`), or while the queue cannot take anything (`UNAVAILABLE` with RetryInfo), as
 * the HTTP receiver does before reading a body. grpc-js reads a message only once the handler
 * asks for it, so a refused sender's bytes (up to `maxBodyBytes`) are never buffered. A call whose
 * message has not arrived whole within `receiveTimeoutMs` is ended (`DEADLINE_EXCEEDED`) and what
 * it sent let go, as HTTP answers 408: a sender that never finishes cannot hold a stream.
 */
export function earlyRefusal(paths: ReadonlySet<string>, handlers: EarlyRefusalHandlers): ServerInterceptor {
  return (method, call: ServerInterceptingCallInterface) => {
    let timer: NodeJS.Timeout | undefined;
    return new ServerInterceptingCall(call, {
      start: (next) => {
        next({
          onReceiveMetadata: (metadata, proceed) => {
            if (!paths.has(method.path)) return proceed(metadata);
            let refused: StatusObject | undefined;
            if (!handlers.tokens.accepts(authHeaders(metadata))) {
              refused = refusal(status.UNAUTHENTICATED, UNAUTHENTICATED_DETAILS);
            } else if (handlers.queueFull()) {
              handlers.countQueueFull();
              refused = refusal(status.UNAVAILABLE, QUEUE_FULL_DETAILS, handlers.retryAfterSeconds());
            }
            if (refused === undefined) {
              timer = setTimeout(() => {
                const details = `The request was not received whole within ${handlers.receiveTimeoutMs} ms (receiveTimeoutMs)`;
                handlers.countResponse(`${method.path} ${statusName(status.DEADLINE_EXCEEDED)}`);
                call.sendStatus(refusal(status.DEADLINE_EXCEEDED, details));
              }, handlers.receiveTimeoutMs);
              // The timer bounds a sender; it does not hold the process.
              timer.unref();
              return proceed(metadata);
            }
            handlers.countResponse(`${method.path} ${statusName(refused.code)}`);
            call.sendStatus(refused);
          },
          onReceiveMessage: (message, proceed) => {
            clearTimeout(timer);
            proceed(message);
          },
          onReceiveHalfClose: (proceed) => {
            clearTimeout(timer);
            proceed();
          },
          onCancel: () => clearTimeout(timer),
        });
      },
    });
  };
}
