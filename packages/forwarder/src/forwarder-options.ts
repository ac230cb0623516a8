import type { AqmOtelOptions } from '@aqm/otel/pipeline';

/**
 * Options of {@link startForwarder}: those of `@aqm/otel` (the same pipeline delivers the traces:
 * `traceIdleMs`, `maxQueueTraces`, `mask`, `sampleRate`, `persistDir`, ...), plus where to listen,
 * who may send, and which application a trace belongs to. The connection comes from
 * `AQM_API_KEY`, `AQM_BASE_URL` and `AQM_APPLICATION_ID` / `AQM_APPLICATION_NAME` when not given;
 * tokens from `AQM_FORWARDER_TOKENS` (comma-separated). As a process of its own, the forwarder
 * defaults to larger bounds than an app: `concurrency` 8, `maxOpenTraces` 20,000, `maxQueueTraces` 20,000 and
 * `maxQueueBytes` 128 MiB.
 */
export interface ForwarderOptions extends Omit<AqmOtelOptions, 'client' | 'applicationId'> {
  /** The application (UUID) of traces that name none. Default: `AQM_APPLICATION_ID`. */
  applicationId?: string | undefined;
  /**
   * The application of traces that name none, by name: found, or created when missing, at start,
   * and again when traces are to be sent while the service could not be reached yet (they are
   * kept meanwhile, as in any outage). Default: `AQM_APPLICATION_NAME`. Give this or
   * `applicationId`, not both.
   */
  applicationName?: string | undefined;
  /**
   * Pick each trace's application from the resource of its first span (or log record): an
   * `aqm.application.id` attribute (a UUID), else `aqm.application.name`, else `service.name`,
   * looked up by name (created only with `createApplications`) and cached; resources that name
   * none use the default application. A name that matches no application, or one past
   * `maxApplications`, has its spans refused (`partial_success`).
   * Default `false`: every trace goes to the default application.
   */
  applicationFromResource?: boolean | undefined;
  /**
   * With `applicationFromResource`, a name that matches no application creates it upstream.
   * Default `false`: spans naming an unknown application are refused (`partial_success`, and one
   * warning), so a sender cannot create applications under your API key.
   */
  createApplications?: boolean | undefined;
  /**
   * Applications (each with its own queue) kept at once with `applicationFromResource`; spans
   * naming more are refused (`partial_success`). Default 100.
   */
  maxApplications?: number | undefined;
  /**
   * Bytes held for delivery (queued, and open traces) across all applications; each one is also
   * bounded by `maxQueueBytes`. At least `maxQueueBytes`. Default twice `maxQueueBytes` (256 MiB).
   */
  maxTotalQueueBytes?: number | undefined;
  /** TCP port. Default 4318 (the OTLP/HTTP port); 0 picks a free one. */
  port?: number | undefined;
  /** Address to listen on (HTTP, and gRPC with `grpcPort`). Default `127.0.0.1`. */
  host?: string | undefined;
  /**
   * TCP port of an OTLP/gRPC receiver (`TraceService/Export`, `LogsService/Export`) beside the
   * HTTP one, on the same `host`, with the same tokens, bounds and backpressure; 0 picks a free
   * one. Default: `AQM_FORWARDER_GRPC_PORT`, else no gRPC receiver (4317 is the OTLP/gRPC port).
   */
  grpcPort?: number | undefined;
  /**
   * PEM certificate (chain) file of the gRPC receiver: with `grpcTlsKeyFile` it serves TLS.
   * Default: `AQM_FORWARDER_GRPC_TLS_CERT_FILE`, else plaintext.
   */
  grpcTlsCertFile?: string | undefined;
  /** PEM private key file of `grpcTlsCertFile`. Default: `AQM_FORWARDER_GRPC_TLS_KEY_FILE`. */
  grpcTlsKeyFile?: string | undefined;
  /**
   * PEM CA file: when set, gRPC senders must present a client certificate it signed (mutual TLS).
   * Default: `AQM_FORWARDER_GRPC_TLS_CA_FILE`, else no client certificate asked.
   */
  grpcTlsCaFile?: string | undefined;
  /**
   * Tokens a sender must present as `Authorization: Bearer <token>` or `x-api-key`. Default:
   * `AQM_FORWARDER_TOKENS`, comma-separated. Without tokens only a loopback address is allowed,
   * unless `allowUnauthenticated`.
   */
  ingestTokens?: readonly string[] | undefined;
  /** Listen on a non-loopback address without ingest tokens. Default `false`. */
  allowUnauthenticated?: boolean | undefined;
  /** Largest request body, on the wire and once inflated, in bytes. Default 8 MiB. */
  maxBodyBytes?: number | undefined;
  /**
   * Most bytes of request bodies held at once while they are received (inflated, for gzip), over
   * all requests and connections; past it requests are answered 503 with `Retry-After`. At least
   * `maxBodyBytes`. Default: `AQM_FORWARDER_MAX_BODY_BYTES_IN_FLIGHT`, else 8 × `maxBodyBytes`
   * (64 MiB).
   */
  maxBodyBytesInFlight?: number | undefined;
  /**
   * How long a root span waits before it completes its trace, in ms, so that log records and
   * spans sent after it (other batches, other services) still join. 0 completes at once. Default 1000.
   */
  rootGraceMs?: number | undefined;
  /**
   * `Retry-After` (seconds; gRPC: `RetryInfo`) of a refusal for a full queue or `maxBodyBytesInFlight`
   * while requests to the service fail. While the service takes traces, room comes within a
   * second, and the delay is 1 (or this, if smaller). Default 5.
   */
  retryAfterSeconds?: number | undefined;
  /**
   * Longest time a sender may take to send one request, head and body, in ms: past it the request
   * is answered 408 and its connection closed, so a body that never ends cannot hold a socket (over
   * gRPC, from the call's metadata to its whole message: `DEADLINE_EXCEEDED`). Default 30000.
   */
  receiveTimeoutMs?: number | undefined;
  /**
   * Debug lines through `diag` at debug level: the configuration at start (key and tokens
   * redacted), each request (what was received, for which application, admitted or refused), and
   * from each application's pipeline each trace sent or skipped, each drop, each disk write and
   * replay. The `aqm-forwarder` bin sets its stderr logger to debug for them. Default: on when
   * `AQM_DEBUG` is `1`/`true` or `OTEL_LOG_LEVEL` is `debug`.
   */
  debug?: boolean | undefined;
}

/** Options that belong to the forwarder itself; the rest go to the `@aqm/otel` pipeline. */
export const FORWARDER_ONLY_OPTIONS = [
  'applicationId',
  'applicationName',
  'applicationFromResource',
  'maxApplications',
  'createApplications',
  'maxTotalQueueBytes',
  'port',
  'host',
  'grpcPort',
  'grpcTlsCertFile',
  'grpcTlsKeyFile',
  'grpcTlsCaFile',
  'ingestTokens',
  'allowUnauthenticated',
  'maxBodyBytes',
  'maxBodyBytesInFlight',
  'retryAfterSeconds',
  'receiveTimeoutMs',
  'rootGraceMs',
  'apiKey',
  'baseUrl',
  'allowInsecureHttp',
  'debug',
] as const;
