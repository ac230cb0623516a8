import { parseArgs } from 'node:util';
import type { ForwarderOptions } from './forwarder-options.js';

/** A command line that cannot be run: the message says what is wrong. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** What the command line asks for. */
export type CliCommand = { kind: 'help' } | { kind: 'run'; options: ForwarderOptions };

export const USAGE = `Usage: aqm-forwarder [options]

Receives OTLP/HTTP (POST /v1/traces and /v1/logs, protobuf or JSON, gzip or not) and, with
--grpc-port, OTLP/gRPC (TraceService/Export, LogsService/Export) from apps in any language or
from an OpenTelemetry Collector, and sends each LLM interaction to the AQM service as a
prompt/response trace.

Environment:
  AQM_API_KEY            API key of the service (required; never printed)
  AQM_BASE_URL           base URL of the service (required unless --base-url)
  AQM_APPLICATION_ID     application of the traces (or AQM_APPLICATION_NAME: found or created)
  AQM_FORWARDER_TOKENS   comma-separated ingest tokens senders must present
                         (Authorization: Bearer <token>, or x-api-key)
  AQM_FORWARDER_MAX_BODY_BYTES_IN_FLIGHT   as --max-body-bytes-in-flight
  AQM_FORWARDER_GRPC_PORT                 as --grpc-port
  AQM_FORWARDER_GRPC_TLS_CERT_FILE, AQM_FORWARDER_GRPC_TLS_KEY_FILE, AQM_FORWARDER_GRPC_TLS_CA_FILE
                                          as --grpc-tls-cert-file, --grpc-tls-key-file, --grpc-tls-ca-file
  AQM_DEBUG=1            as --debug (so does OTEL_LOG_LEVEL=debug)
  AQM_ENVIRONMENT, AQM_APP_VERSION, AQM_SAMPLE_RATE, AQM_PERSIST_DIR, AQM_PERSIST_MODE,
  AQM_FLUSH_TIMEOUT_MS   as the options of @aqm/otel (a flag wins)

Options:
  --port <n>                   port (default 4318; 0 picks a free one)
  --host <address>             address (default 127.0.0.1); not loopback needs ingest tokens
  --grpc-port <n>              also receive OTLP/gRPC on this port (4317 is its usual one; 0 picks
                               a free one); same host, tokens (authorization metadata), bounds
  --grpc-tls-cert-file <file>  PEM certificate of the gRPC receiver: TLS (with --grpc-tls-key-file)
  --grpc-tls-key-file <file>   PEM private key of that certificate
  --grpc-tls-ca-file <file>    PEM CA: gRPC senders must present a client certificate it signed
  --base-url <url>             instead of AQM_BASE_URL
  --application-id <uuid>      instead of AQM_APPLICATION_ID
  --application-name <name>    instead of AQM_APPLICATION_NAME
  --application-from-resource  each trace's application from its resource (aqm.application.id,
                               aqm.application.name or service.name); others use the default
  --create-applications        with --application-from-resource, create an application a
                               resource names that does not exist (default: refuse its spans)
  --allow-unauthenticated      listen on a non-loopback address without ingest tokens
  --trace-idle-ms <n>          a trace without a new span for this long is complete (default 5000)
  --root-grace-ms <n>          a root span waits this long for late log records (default 1000)
  --max-body-bytes <n>         largest request body, on the wire and inflated (default 8388608)
  --max-body-bytes-in-flight <n>
                               bytes of bodies held at once over all requests, past it 503
                               (default 8 x max-body-bytes; AQM_FORWARDER_MAX_BODY_BYTES_IN_FLIGHT)
  --receive-timeout-ms <n>     a request not received whole in this time gets 408 (default 30000)
  --max-queue-traces <n>       traces held for delivery before senders get 503 (default 20000)
  --persist-dir <dir>          keep undelivered traces on disk across restarts
  --persist-mode <mode>        overflow (default: memory first) or write-ahead (a 200 means
                               on disk; AQM_PERSIST_MODE)
  --sample-rate <0..1>         share of traces sent (default 1)
  --mask-pii                   mask e-mail addresses, phone and card numbers before sending
  --environment <name>         environment of every trace
  --allow-insecure-http        allow a plain http: base URL that is not loopback
  --debug                      print on stderr the configuration (key redacted), each request
                               (received, admitted or refused), each trace sent or skipped and
                               why, each drop, each disk write and replay
  -h, --help                   this help
`;

function integer(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliUsageError(`--${flag} expects a whole number, got "${value}"`);
  return Number(value);
}

/**
 * Parses the command line into forwarder options (environment variables are read by
 * `startForwarder`). Throws {@link CliUsageError} for an unknown flag or a malformed value.
 *
 * @example
 * parseCliArgs(['--port', '4318']) // { kind: 'run', options: { port: 4318 } }
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'grpc-port': { type: 'string' },
        'grpc-tls-cert-file': { type: 'string' },
        'grpc-tls-key-file': { type: 'string' },
        'grpc-tls-ca-file': { type: 'string' },
        'base-url': { type: 'string' },
        'application-id': { type: 'string' },
        'application-name': { type: 'string' },
        'application-from-resource': { type: 'boolean' },
        'create-applications': { type: 'boolean' },
        'allow-unauthenticated': { type: 'boolean' },
        'trace-idle-ms': { type: 'string' },
        'max-body-bytes': { type: 'string' },
        'max-body-bytes-in-flight': { type: 'string' },
        'receive-timeout-ms': { type: 'string' },
        'root-grace-ms': { type: 'string' },
        'max-queue-traces': { type: 'string' },
        'persist-dir': { type: 'string' },
        'persist-mode': { type: 'string' },
        'sample-rate': { type: 'string' },
        'mask-pii': { type: 'boolean' },
        environment: { type: 'string' },
        'allow-insecure-http': { type: 'boolean' },
        debug: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (values.help === true) return { kind: 'help' };
  const text = (key: string) => values[key] as string | undefined;
  const sampleRate = text('sample-rate');
  if (sampleRate !== undefined && !/^(0(\.\d+)?|1(\.0+)?)$/.test(sampleRate)) {
    throw new CliUsageError(`--sample-rate expects a number from 0 to 1, got "${sampleRate}"`);
  }
  const persistMode = text('persist-mode');
  if (persistMode !== undefined && persistMode !== 'overflow' && persistMode !== 'write-ahead') {
    throw new CliUsageError(`--persist-mode expects overflow or write-ahead, got "${persistMode}"`);
  }
  const options: ForwarderOptions & { persistDir?: string; persistMode?: 'overflow' | 'write-ahead' } = {};
  const set = <K extends keyof typeof options>(key: K, value: (typeof options)[K] | undefined) => {
    if (value !== undefined) options[key] = value;
  };
  set('port', integer('port', text('port')));
  set('host', text('host'));
  set('grpcPort', integer('grpc-port', text('grpc-port')));
  set('grpcTlsCertFile', text('grpc-tls-cert-file'));
  set('grpcTlsKeyFile', text('grpc-tls-key-file'));
  set('grpcTlsCaFile', text('grpc-tls-ca-file'));
  set('baseUrl', text('base-url'));
  set('applicationId', text('application-id'));
  set('applicationName', text('application-name'));
  if (values['application-from-resource'] === true) options.applicationFromResource = true;
  if (values['create-applications'] === true) options.createApplications = true;
  if (values['allow-unauthenticated'] === true) options.allowUnauthenticated = true;
  if (values['allow-insecure-http'] === true) options.allowInsecureHttp = true;
  if (values.debug === true) options.debug = true;
  set('traceIdleMs', integer('trace-idle-ms', text('trace-idle-ms')));
  set('rootGraceMs', integer('root-grace-ms', text('root-grace-ms')));
  set('maxBodyBytes', integer('max-body-bytes', text('max-body-bytes')));
  set('maxBodyBytesInFlight', integer('max-body-bytes-in-flight', text('max-body-bytes-in-flight')));
  set('receiveTimeoutMs', integer('receive-timeout-ms', text('receive-timeout-ms')));
  set('maxQueueTraces', integer('max-queue-traces', text('max-queue-traces')));
  set('persistDir', text('persist-dir'));
  set('persistMode', persistMode);
  set('sampleRate', sampleRate === undefined ? undefined : Number(sampleRate));
  set('environment', text('environment'));
  return { kind: 'run', options };
}
