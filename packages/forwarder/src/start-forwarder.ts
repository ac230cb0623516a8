import { AqmClient } from '@aqm/client';
import { type DebugSink, resolveOptions, TracePipeline } from '@aqm/otel/pipeline';
import { type DiagLogger, diag } from '@opentelemetry/api';
import { Admission } from './admission.js';
import { ApplicationRouter } from './application-router.js';
import { checkApplicationId } from './check-application.js';
import { ForwarderDebug } from './forwarder-debug.js';
import type { ForwarderOptions } from './forwarder-options.js';
import { type ForwarderStats, prometheusText, sumPipelineStats } from './forwarder-stats.js';
import { type GrpcReceiver, startGrpcReceiver } from './grpc/grpc-receiver.js';
import { BodyBudget } from './http/body-budget.js';
import { IngestTokens } from './http/ingest-auth.js';
import { buildOtlpApp } from './http/otlp-app.js';
import { OtlpIngest } from './ingest.js';
import { type DecodedRequest, decodeRequest, type OtlpFormat } from './otlp/otlp-codec.js';
import { PipelineFeed } from './pipeline-feed.js';
import { RequestLog } from './request-log.js';
import { replayRequestLogs } from './request-log-replay.js';
import { resolveForwarderOptions } from './resolve-options.js';
import { retryDelay } from './retry-delay.js';
import { RootGrace } from './root-grace.js';

/** A running forwarder. */
export interface RunningForwarder {
  /** The base address, e.g. `http://127.0.0.1:4318`: set it as `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string;
  /** The port of the OTLP/gRPC receiver (the one picked, for `grpcPort: 0`); `undefined` without `grpcPort`. */
  readonly grpcPort: number | undefined;
  /**
   * The gRPC receiver's address, e.g. `http://127.0.0.1:4317` (`https:` with TLS): set it as
   * `OTEL_EXPORTER_OTLP_ENDPOINT` with `OTEL_EXPORTER_OTLP_PROTOCOL=grpc`. `undefined` without `grpcPort`.
   */
  readonly grpcUrl: string | undefined;
  /**
   * Stops accepting requests, lets those in progress finish, completes every trace still being
   * assembled and delivers what is held within `shutdownTimeoutMs`, then resolves. Never rejects.
   */
  close(): Promise<void>;
  /** Counters: received, refused, delivered, dropped, held. */
  stats(): ForwarderStats;
}

/** Longest the gRPC receiver waits for calls in progress at close before cutting them. */
const GRPC_SHUTDOWN_MS = 5000;
/** Longest a request waits for the lookup of an application its resource names before 503. */
const LOOKUP_WAIT_MS = 2000;
/** A placeholder id to check the pipeline's options once at start, before any application is known. */
const CHECK_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Starts an OTLP/HTTP receiver whose spans and `gen_ai.*` log records go through the same
 * pipeline as `@aqm/otel` (assembly, mapping, masking, sampling, bounded queue, retrying sender)
 * to the AQM service. Resolves once it listens.
 *
 * Throws (rejects) when an option is invalid or missing, naming it, and when the address is not
 * loopback and no ingest token is set (unless `allowUnauthenticated`).
 *
 * @example
 * const forwarder = await startForwarder({ applicationName: 'checkout', port: 4318 });
 * // apps export with OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318
 * process.on('SIGTERM', () => void forwarder.close());
 */
export async function startForwarder(options: ForwarderOptions = {}): Promise<RunningForwarder> {
  const resolved = resolveForwarderOptions(options);
  const logger: DiagLogger = diag.createComponentLogger({ namespace: '@aqm/forwarder' });
  // At debug, the forwarder's lines and its pipelines' go through its logger (the bin's stderr).
  const debugLine: DebugSink | false = resolved.debug ? (line) => logger.debug(line) : false;
  const debug = debugLine === false ? undefined : new ForwarderDebug(debugLine);
  const client = new AqmClient({
    apiKey: resolved.apiKey,
    baseUrl: resolved.baseUrl,
    allowInsecureHttp: resolved.allowInsecureHttp,
    maxRetries: 0, // the pipeline's sender owns the retry policy
    ...(resolved.pipelineOptions.requestTimeoutMs === undefined
      ? {}
      : { timeoutMs: resolved.pipelineOptions.requestTimeoutMs }),
  });
  let router: ApplicationRouter;
  let limits: ReturnType<typeof resolveOptions>;
  let maxTotalQueueBytes: number;
  try {
    limits = resolveOptions({ ...resolved.pipelineOptions, client, applicationId: CHECK_ID });
    maxTotalQueueBytes = resolved.maxTotalQueueBytes ?? 2 * limits.maxQueueBytes;
    if (maxTotalQueueBytes < limits.maxQueueBytes) {
      throw new RangeError(
        `Expected \`maxTotalQueueBytes\` to be at least \`maxQueueBytes\` (${limits.maxQueueBytes}), got ${maxTotalQueueBytes}`,
      );
    }
    router = new ApplicationRouter({
      client,
      pipelineOptions: resolved.pipelineOptions,
      defaultApplication: resolved.defaultApplication,
      fromResource: resolved.applicationFromResource,
      createApplications: resolved.createApplications,
      maxApplications: resolved.maxApplications,
      maxTraceRoutes: limits.maxOpenTraces * 4,
      logger,
      // Admission bounds what comes in: a trace it admitted is kept rather than dropped as queue-full.
      createPipeline: (options) =>
        new TracePipeline(options, { logger, keepOverBound: true, debug: debugLine, receivesOtlp: true }),
    });
  } catch (error) {
    await client.close();
    throw error;
  }
  const admission = new Admission(
    {
      maxQueueTraces: limits.maxQueueTraces,
      maxQueueBytes: limits.maxQueueBytes,
      maxOpenTraces: limits.maxOpenTraces,
      maxTotalQueueBytes,
      maxDiskBytes: limits.persistDir === undefined ? undefined : limits.maxDiskBytes,
    },
    () => router.pipelines,
  );
  // Half the open-trace bound: a root is released before its trace could be evicted as the oldest.
  const roots = new RootGrace(resolved.rootGraceMs, Math.max(1, Math.floor(limits.maxOpenTraces / 2)));
  const feed = new PipelineFeed(roots);
  // persistMode 'write-ahead': each request on disk before its 200, the pipelines' records too.
  const requestLog =
    limits.persistDir !== undefined && limits.persistMode === 'write-ahead'
      ? new RequestLog(limits.persistDir, logger)
      : undefined;
  const ingest = new OtlpIngest({
    router,
    feed,
    admission,
    lookupWaitMs: LOOKUP_WAIT_MS,
    logger,
    debug,
    requestLog,
  });
  const responses: Record<string, number> = {};
  const grpcResponses: Record<string, number> = {};
  let grpc: GrpcReceiver | undefined;
  const responsesBeforeRouting: Record<string, number> = {};
  let refusedQueueFull = 0;
  const retryAfterSeconds = retryDelay(resolved.retryAfterSeconds, () => router.pipelines);
  const bodyBudget = new BodyBudget(resolved.maxBodyBytesInFlight, retryAfterSeconds);
  let closing: Promise<void> | undefined;

  const stats = (): ForwarderStats => {
    const pipelines = router.pipelines;
    return {
      ...ingest.counters,
      responses: { ...responses },
      grpcResponses: { ...grpcResponses },
      responsesBeforeRouting: { ...responsesBeforeRouting },
      refusedQueueFull,
      bodyBytesInFlight: bodyBudget.inFlight,
      bodyBytesInFlightPeak: bodyBudget.peak,
      refusedBodyBytesInFlight: bodyBudget.refused,
      heldRoots: roots.held,
      applications: pipelines.length,
      pipeline: sumPipelineStats(pipelines.map((pipeline) => pipeline.stats())),
    };
  };
  // What both receivers share: tokens, bounds, ingest and the queue-full check.
  const shared = {
    tokens: new IngestTokens(resolved.ingestTokens),
    maxBodyBytes: resolved.maxBodyBytes,
    bodyBudget,
    retryAfterSeconds,
    ingest: (
      signal: 'traces' | 'logs',
      items: DecodedRequest,
      bodyBytes: number,
      source: { format: OtlpFormat; body: Buffer; route?: string },
    ) =>
      signal === 'traces' ? ingest.traces(items, bodyBytes, source) : ingest.logs(items, bodyBytes, source),
    // Before the body is read, only when every request goes to one application, and it has no
    // room at all; otherwise each application's share is judged once the request is decoded.
    queueFull: () => {
      const only = resolved.applicationFromResource ? undefined : router.pipelines[0];
      return only !== undefined && !admission.hasRoom(only);
    },
    countQueueFull: () => {
      refusedQueueFull += 1;
    },
  };
  const app = buildOtlpApp({
    ...shared,
    receiveTimeoutMs: resolved.receiveTimeoutMs,
    // Ready while not closing and, with gRPC, while its receiver is bound and serving too.
    ready: () => closing === undefined && (resolved.grpc === undefined || grpc?.serving === true),
    // Keys are bounded: a fixed set of routes ('other' for unknown paths) times the status codes used.
    countResponse: (key) => {
      responses[key] = (responses[key] ?? 0) + 1;
    },
    countResponseBeforeRouting: (status) => {
      responsesBeforeRouting[status] = (responsesBeforeRouting[status] ?? 0) + 1;
    },
    metrics: () => prometheusText(stats()),
  });

  // Aborted on close: the start-up check of the application must not outlive the forwarder.
  const startupCheck = new AbortController();
  const shutdown = async (): Promise<void> => {
    startupCheck.abort();
    await Promise.all([
      app.close().catch((error: unknown) => logger.warn(`Closing the HTTP server failed: ${String(error)}`)),
      grpc?.close(GRPC_SHUTDOWN_MS),
    ]);
    // No request can add spans now: what answered requests brought goes in, the held roots complete
    // their traces, then the pipelines flush.
    feed.drain();
    roots.close();
    await Promise.all(router.pipelines.map((pipeline) => pipeline.shutdown()));
    requestLog?.close();
    router.close();
    try {
      await client.close();
    } catch (error) {
      logger.warn(`Closing the connection pool failed: ${String(error)}`);
    }
  };

  try {
    await app.listen({ port: resolved.port, host: resolved.host });
    if (resolved.grpc !== undefined) {
      grpc = await startGrpcReceiver(resolved.host, resolved.grpc, {
        ...shared,
        receiveTimeoutMs: resolved.receiveTimeoutMs,
        logger,
        countResponse: (key) => {
          grpcResponses[key] = (grpcResponses[key] ?? 0) + 1;
        },
      });
    }
  } catch (error) {
    await shutdown();
    throw error;
  }
  if (requestLog !== undefined) {
    requestLog.start();
    // What a forwarder that is gone had answered 200 and not yet handed over, in the background.
    void replayRequestLogs(
      requestLog.dir,
      requestLog.ownerId,
      (request, skip) => {
        const items = decodeRequest(request.signal, request.format, request.body);
        const source = { format: request.format, body: request.body, skip };
        return request.signal === 'traces'
          ? ingest.traces(items, request.body.length, source)
          : ingest.logs(items, request.body.length, source);
      },
      logger,
    ).catch((error: unknown) =>
      logger.error(`Replaying the request logs in persistDir failed: ${String(error)}`),
    );
  }
  if (resolved.defaultApplication !== undefined && 'id' in resolved.defaultApplication)
    void checkApplicationId(client, resolved.defaultApplication.id, logger, startupCheck.signal);
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : resolved.port;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  const url = `http://${host}:${port}`;
  const grpcUrl =
    grpc === undefined
      ? undefined
      : `${resolved.grpc?.tls === undefined ? 'http' : 'https'}://${host}:${grpc.port}`;
  debug?.config(resolved, url, grpcUrl);
  return {
    url,
    grpcPort: grpc?.port,
    grpcUrl,
    close() {
      closing ??= shutdown();
      return closing;
    },
    stats,
  };
}
