import { noteContentLogRecord, type TracePipeline } from '@aqm/otel/pipeline';
import type { DiagLogger } from '@opentelemetry/api';
import type { Admission, Reservation, Share } from './admission.js';
import type { ApplicationRouter } from './application-router.js';
import { feedGroup } from './feed-group.js';
import type { ForwarderDebug } from './forwarder-debug.js';
import { type IngestResult, Refusals, result } from './ingest-refusals.js';
import { spanOrigin, toForwardedSpan } from './otlp/forwarded-span.js';
import { toLlmLogRecord } from './otlp/log-records.js';
import type { DecodedRequest, OtlpFormat } from './otlp/otlp-codec.js';
import { keyValues } from './otlp/otlp-values.js';
import type { PipelineFeed } from './pipeline-feed.js';
import { type RequestGroup, RequestGroups } from './request-groups.js';
import type { RequestEntry, RequestLog } from './request-log.js';

/** Counters of what was received, for `stats()` and `/metrics`. */
export interface IngestCounters {
  receivedSpans: number;
  rejectedSpans: number;
  receivedLogRecords: number;
  joinedLogRecords: number;
  rejectedLogRecords: number;
}

/** Settings of an {@link OtlpIngest}. */
export interface OtlpIngestOptions {
  router: ApplicationRouter;
  feed: PipelineFeed;
  admission: Admission;
  /** Longest a request waits for the lookup of an application its resource names. */
  lookupWaitMs: number;
  /** Told, at most once a minute, that items were refused for a full queue. */
  logger: DiagLogger;
  /** Debug lines per request; absent when debug is off. */
  debug?: ForwarderDebug | undefined;
  /** `persistMode: 'write-ahead'`: each request is logged to disk before it is answered 200. */
  requestLog?: RequestLog | undefined;
}

/** A request as it came (for the request log), and the traces to leave out (a replay's). */
export interface IngestSource {
  format: OtlpFormat;
  body: Buffer;
  /** Traces whose records were made before the log was replayed: their items are left out. */
  skip?: ReadonlySet<string>;
  /** How the request came, for the debug lines: `POST /v1/traces` unless said otherwise (gRPC). */
  route?: string;
}

/** At most one warning a minute about refusals for a full queue (an outage refuses every request). */
const REFUSAL_WARNING_INTERVAL_MS = 60_000;

type Fields = Record<string, unknown>;

/**
 * Bytes the record of a trace takes per byte of the request that brought it (an estimate made
 * before mapping: the record repeats the prompt and response, and JSON is larger than protobuf),
 * plus a floor per item (ids, times, names).
 */
const RECORD_BYTES_PER_BODY_BYTE = 2;
const RECORD_BYTES_PER_ITEM = 256;

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function fields(value: unknown): Fields {
  return typeof value === 'object' && value !== null ? (value as Fields) : {};
}

/**
 * Feeds decoded OTLP to the pipelines: spans become SDK-shaped spans, `gen_ai.*` log records
 * become content records, each routed to its application's pipeline. What an application's
 * queue cannot take is refused before the answer (see {@link Admission}): a 200 means every item
 * not listed in `partial_success` will be delivered or kept on disk. All spans of one request for
 * one pipeline go in together, roots last, so a root completes its trace with them.
 */
export class OtlpIngest {
  readonly #options: OtlpIngestOptions;
  #lastRefusalWarningMs = Number.NEGATIVE_INFINITY;
  #refusedSinceWarning = 0;
  readonly counters: IngestCounters = {
    receivedSpans: 0,
    rejectedSpans: 0,
    receivedLogRecords: 0,
    joinedLogRecords: 0,
    rejectedLogRecords: 0,
  };

  constructor(options: OtlpIngestOptions) {
    this.#options = options;
  }

  /** Takes the `resourceSpans` of an export request of `bodyBytes` (inflated). Never rejects on malformed content. */
  async traces(
    resourceSpans: DecodedRequest,
    bodyBytes: number,
    source?: IngestSource,
  ): Promise<IngestResult> {
    const skip = source?.skip;
    const groups = new RequestGroups(this.#options.router);
    const refusals = new Refusals();
    let total = 0;
    for (const entry of resourceSpans) {
      const resourceSpan = fields(entry);
      const resource = keyValues(fields(resourceSpan.resource).attributes);
      for (const scopeEntry of list(resourceSpan.scopeSpans)) {
        const scopeSpans = fields(scopeEntry);
        const origin = spanOrigin(resource, scopeSpans.scope);
        for (const raw of list(scopeSpans.spans)) {
          total += 1;
          const span = toForwardedSpan(raw, origin);
          if (span === undefined) {
            refusals.add(1, 'without a valid trace id (16 bytes) and span id (8 bytes)');
            continue;
          }
          if (skip?.has(span.spanContext().traceId) === true) continue;
          groups.add(span.spanContext().traceId, resource, {
            span,
            root: span.parentSpanContext === undefined,
          });
        }
      }
    }
    const accepted = await this.#admit(
      groups,
      refusals,
      total,
      bodyBytes,
      'span',
      source && { signal: 'traces', ...source },
    );
    this.counters.receivedSpans += total;
    this.counters.rejectedSpans += refusals.count;
    const answer = result(accepted, refusals, 'span');
    this.#options.debug?.request(source?.route ?? 'POST /v1/traces', 'span', total, bodyBytes, answer);
    return answer;
  }

  /** Takes the `resourceLogs` of an export request of `bodyBytes` (inflated). Never rejects on malformed content. */
  async logs(resourceLogs: DecodedRequest, bodyBytes: number, source?: IngestSource): Promise<IngestResult> {
    const skip = source?.skip;
    const groups = new RequestGroups(this.#options.router);
    const refusals = new Refusals();
    let total = 0;
    let notOurs = 0;
    for (const entry of resourceLogs) {
      const resourceLog = fields(entry);
      const resource = keyValues(fields(resourceLog.resource).attributes);
      for (const scopeEntry of list(resourceLog.scopeLogs)) {
        for (const raw of list(fields(scopeEntry).logRecords)) {
          total += 1;
          const log = toLlmLogRecord(raw);
          if (log === 'not-llm') {
            notOurs += 1; // nothing of ours: accepted and let go
            continue;
          }
          if (log === 'no-span') {
            refusals.add(1, '(gen_ai.*) without a valid trace id and span id');
            continue;
          }
          if (skip?.has(log.traceId) === true) continue;
          // Content arrives on log records: the mapping must not warn that it is lost.
          noteContentLogRecord();
          groups.add(log.traceId, resource, { log });
        }
      }
    }
    const joined = await this.#admit(
      groups,
      refusals,
      total,
      bodyBytes,
      'log record',
      source && { signal: 'logs', ...source },
    );
    this.counters.receivedLogRecords += total;
    this.counters.joinedLogRecords += joined;
    this.counters.rejectedLogRecords += refusals.count;
    const answer = result(joined + notOurs, refusals, 'log record');
    this.#options.debug?.request(source?.route ?? 'POST /v1/logs', 'log record', total, bodyBytes, answer);
    return answer;
  }

  /** Admits each group whose application can take it and hands it to the feed; returns the items taken. */
  async #admit(
    groups: RequestGroups,
    refusals: Refusals,
    total: number,
    bodyBytes: number,
    what: string,
    source?: IngestSource & { signal: 'traces' | 'logs' },
  ): Promise<number> {
    const debug = this.#options.debug;
    const lookups = groups.lookups;
    if (lookups.length > 0) {
      await waitAtMost(Promise.all(lookups), this.#options.lookupWaitMs);
      groups.resolveAgain();
    }
    const bytesPerItem = total === 0 ? 0 : bodyBytes / total;
    let accepted = 0;
    const admitted: [RequestGroup, TracePipeline, Reservation, Share][] = [];
    for (const group of groups.groups) {
      const { destination } = group;
      if (destination.kind === 'refused') {
        refusals.add(group.items, destination.reason);
        debug?.group(what, group.items, group.traceIds.size, '(none)', {
          admitted: false,
          reason: destination.reason,
        });
        continue;
      }
      if (destination.kind === 'pending') {
        refusals.add(group.items, 'refused for now: their application is still being looked up', true);
        debug?.group(what, group.items, group.traceIds.size, '(being looked up)', {
          admitted: false,
          reason: 'still being looked up',
        });
        continue;
      }
      const share = {
        traces: group.traceIds.size,
        bytes: Math.ceil(group.items * (RECORD_BYTES_PER_BODY_BYTE * bytesPerItem + RECORD_BYTES_PER_ITEM)),
      };
      const verdict = this.#options.admission.admit(destination.pipeline, share);
      if ('refusal' in verdict) {
        refusals.add(group.items, `refused: ${verdict.refusal.reason}`, verdict.refusal.retryable);
        this.#warnRefused(group.items, verdict.refusal.reason);
        debug?.group(what, group.items, group.traceIds.size, destination.pipeline.applicationLabel, {
          admitted: false,
          reason: verdict.refusal.reason,
        });
        continue;
      }
      debug?.group(what, group.items, group.traceIds.size, destination.pipeline.applicationLabel, {
        admitted: true,
      });
      admitted.push([group, destination.pipeline, verdict.reservation, share]);
      accepted += group.items;
    }
    if (admitted.length === 0) return 0;
    const log = this.#options.requestLog;
    let entry: RequestEntry | undefined;
    if (log !== undefined && source !== undefined) {
      entry = log.append(source.signal, source.format, source.body);
      if (entry === undefined) {
        // A 200 means on disk: what the log could not take is refused, to be sent again.
        for (const [group, , reservation, share] of admitted) {
          reservation.release(share);
          refusals.add(group.items, 'refused for now: persistDir refused the request log', true);
        }
        return 0;
      }
    }
    for (const [group, pipeline, reservation, share] of admitted) {
      groups.remember(group, pipeline);
      entry?.track(pipeline, group.traceIds);
      feedGroup(this.#options.feed, group, pipeline, reservation, share.bytes / group.items, entry);
    }
    return accepted;
  }

  #warnRefused(items: number, reason: string): void {
    this.#refusedSinceWarning += items;
    const now = Date.now();
    if (now - this.#lastRefusalWarningMs < REFUSAL_WARNING_INTERVAL_MS) return;
    this.#lastRefusalWarningMs = now;
    this.#options.logger.warn(
      `Refused ${this.#refusedSinceWarning} span(s)/log record(s) since the last warning, answered 503 or ` +
        `partial_success (the AQM service is slow or unreachable?); the last because ${reason}`,
    );
    this.#refusedSinceWarning = 0;
  }
}

/** Resolves when `promise` settles or after `ms`, whichever is first. */
async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise.then(noop, noop), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function noop(): void {}
