import { readRegularFile } from '@aqm/otel/pipeline';
import {
  Server,
  ServerCredentials,
  type ServerErrorResponse,
  type ServerUnaryCall,
  type ServiceDefinition,
  type sendUnaryData,
  status,
} from '@grpc/grpc-js';
import type { DiagLogger } from '@opentelemetry/api';
import type { OtlpAppHandlers } from '../http/otlp-app.js';
import { OtlpDecodeError } from '../otlp/decode-error.js';
import { decodeRequest, encodeExportResponse, type OtlpSignal } from '../otlp/otlp-codec.js';
import type { GrpcOptions } from '../resolve-grpc-options.js';
import { earlyRefusal, refusal, statusName } from './early-refusal.js';
import { widenFlowControlWindows } from './flow-control.js';

/** What the gRPC receiver shares with the HTTP one: tokens, bounds, ingest, counters. */
export type GrpcHandlers = Pick<
  OtlpAppHandlers,
  | 'tokens'
  | 'maxBodyBytes'
  | 'bodyBudget'
  | 'retryAfterSeconds'
  | 'receiveTimeoutMs'
  | 'ingest'
  | 'queueFull'
  | 'countQueueFull'
> & {
  /** Counts an answer, by method path and status name (`OK`, `UNAUTHENTICATED`, ...). */
  countResponse(key: string): void;
  logger: DiagLogger;
};

/** A listening gRPC receiver. */
export interface GrpcReceiver {
  /** The port it listens on (the one picked, for 0). */
  readonly port: number;
  /** Bound and taking calls (false once closing). */
  readonly serving: boolean;
  /** Stops taking calls, lets those in progress end within `timeoutMs`, then cuts the rest. */
  close(timeoutMs: number): Promise<void>;
}

/** The two methods, by signal: the paths OTLP/gRPC exporters call. */
export const GRPC_METHODS: Readonly<Record<OtlpSignal, string>> = {
  traces: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
  logs: '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
};

/**
 * A service of one unary `Export` method whose request and response stay bytes: the request is
 * decoded by the forwarder's own OTLP decoder (with its decode-work limits), as over HTTP.
 */
function exportService(signal: OtlpSignal): ServiceDefinition {
  return {
    Export: {
      path: GRPC_METHODS[signal],
      requestStream: false,
      responseStream: false,
      requestSerialize: (value: Buffer) => value,
      requestDeserialize: (bytes: Buffer) => bytes,
      responseSerialize: (value: Buffer) => value,
      responseDeserialize: (bytes: Buffer) => bytes,
    },
  };
}

/** The most a PEM file may hold: a certificate chain or a CA bundle is far smaller. */
const MAX_TLS_FILE_BYTES = 1024 * 1024;

/**
 * A TLS file's bytes; the error names the option (or its variable) and the path. Links are
 * followed (a Kubernetes Secret's files are links); a FIFO, device or folder is refused (ENOTREG)
 * rather than read, which would hang the start on a FIFO without a writer.
 */
async function readTlsFile(label: string, path: string): Promise<Buffer> {
  try {
    return await readRegularFile(path, MAX_TLS_FILE_BYTES, { followLinks: true });
  } catch (error) {
    // The code (ENOENT, EACCES, ENOTREG) rather than the message, which repeats the path unescaped.
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`Cannot read ${label}, ${JSON.stringify(path)}: ${reason}`);
  }
}

async function credentials(options: GrpcOptions): Promise<ServerCredentials> {
  if (options.tls === undefined) return ServerCredentials.createInsecure();
  const { certFile, keyFile, caFile, labels } = options.tls;
  const ca = caFile === undefined ? null : await readTlsFile(labels.caFile, caFile);
  // A key that does not match its certificate, or a file that is no PEM, throws here, at start.
  const pair = {
    cert_chain: await readTlsFile(labels.certFile, certFile),
    private_key: await readTlsFile(labels.keyFile, keyFile),
  };
  return ServerCredentials.createSsl(ca, [pair], ca !== null);
}

/**
 * Starts an OTLP/gRPC receiver on `host`: `TraceService/Export` and `LogsService/Export`, taking
 * what the HTTP receiver takes and answering as it does in gRPC terms: `UNAUTHENTICATED` without
 * a token, `INVALID_ARGUMENT` for a request that does not decode or passes a decode limit,
 * `RESOURCE_EXHAUSTED` (from grpc-js) for a message past `maxBodyBytes` on the wire or inflated,
 * `UNAVAILABLE` with a `RetryInfo` when the queue or the bytes in flight are full (the OTLP
 * spec's backpressure signal), and `partial_success` for what was refused. Rejects when it cannot
 * bind or a TLS file cannot be read.
 */
export async function startGrpcReceiver(
  host: string,
  options: GrpcOptions,
  handlers: GrpcHandlers,
): Promise<GrpcReceiver> {
  const creds = await credentials(options);
  const server = new Server({
    // grpc-js refuses a larger message (RESOURCE_EXHAUSTED) as it arrives, and one that inflates
    // (grpc-encoding gzip) past it as it inflates, before the handler sees it.
    'grpc.max_receive_message_length': handlers.maxBodyBytes,
    // Tokens and a full queue are judged on the metadata, before the message is read.
    interceptors: [earlyRefusal(new Set(Object.values(GRPC_METHODS)), handlers)],
  });
  const answer = (
    callback: sendUnaryData<Buffer>,
    path: string,
    code: status,
    details: string,
    retry = false,
  ): void => {
    handlers.countResponse(`${path} ${statusName(code)}`);
    const refused = refusal(code, details, retry ? handlers.retryAfterSeconds() : undefined);
    const error: ServerErrorResponse = Object.assign(new Error(details), refused);
    callback(error);
  };
  const exportCall = (signal: OtlpSignal) => {
    const path = GRPC_METHODS[signal];
    return async (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
      try {
        // Tokens and a full queue were judged before the message was read (earlyRefusal).
        const body = call.request;
        // The message counts against maxBodyBytesInFlight while it is held and decoded, as a body
        // being received over HTTP does.
        const account = handlers.bodyBudget.open();
        let items: ReturnType<typeof decodeRequest>;
        try {
          if (!account.take(body.length)) {
            answer(callback, path, status.UNAVAILABLE, handlers.bodyBudget.refusal().message, true);
            return;
          }
          items = decodeRequest(signal, 'protobuf', body);
        } finally {
          account.release();
        }
        const result = await handlers.ingest(signal, items, body.length, {
          format: 'protobuf',
          body,
          route: `gRPC ${path}`,
        });
        if (result.retryLater) {
          const message = `The forwarder cannot take this request now; retry after the RetryInfo delay (${result.errorMessage})`;
          handlers.countQueueFull();
          answer(callback, path, status.UNAVAILABLE, message, true);
          return;
        }
        handlers.countResponse(`${path} OK`);
        callback(
          null,
          encodeExportResponse(signal, 'protobuf', result.rejected, result.errorMessage) as Buffer,
        );
      } catch (error) {
        if (error instanceof OtlpDecodeError) {
          answer(callback, path, status.INVALID_ARGUMENT, error.message);
          return;
        }
        handlers.logger.error(`A gRPC ${path} call failed: ${String(error)}`);
        answer(callback, path, status.INTERNAL, 'Internal error');
      }
    };
  };
  server.addService(exportService('traces'), { Export: exportCall('traces') });
  server.addService(exportService('logs'), { Export: exportCall('logs') });
  const address = `${host.includes(':') ? `[${host}]` : host}:${options.port}`;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, creds, (error, bound) => (error === null ? resolve(bound) : reject(error)));
  });
  widenFlowControlWindows(server, handlers.logger);
  let serving = true;
  return {
    port,
    get serving() {
      return serving;
    },
    close(timeoutMs) {
      serving = false;
      return new Promise<void>((resolve) => {
        // Calls in progress end (their answers are sent); past the bound, the rest are cut.
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, timeoutMs);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
