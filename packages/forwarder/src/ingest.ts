import {
  type LlmLogRecord,
  noteContentLogRecord,
  type ReadableSpan,
  type TracePipeline,
} from '@aqm/otel/pipeline';
import type { ApplicationRouter } from './application-router.js';
import { spanOrigin, toForwardedSpan } from './otlp/forwarded-span.js';
import { toLlmLogRecord } from './otlp/log-records.js';
import type { DecodedRequest } from './otlp/otlp-codec.js';
import { keyValues } from './otlp/otlp-values.js';
import type { PipelineFeed } from './pipeline-feed.js';

/** What one export request came to: how many items were refused, and why (for `partial_success`). */
export interface IngestResult {
  accepted: number;
  rejected: number;
  errorMessage: string;
}

/** Counters of what was received, for `stats()` and `/metrics`. */
export interface IngestCounters {
  receivedSpans: number;
  rejectedSpans: number;
  receivedLogRecords: number;
  joinedLogRecords: number;
  rejectedLogRecords: number;
}

type Fields = Record<string, unknown>;

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function fields(value: unknown): Fields {
  return typeof value === 'object' && value !== null ? (value as Fields) : {};
}

/**
 * Feeds decoded OTLP to the pipelines: spans become SDK-shaped spans, `gen_ai.*` log records
 * become content records, each routed to its application's pipeline. All spans of one request
 * for one pipeline go in one `addSpans` call, so a root listed before its children completes its
 * trace with them.
 */
export class OtlpIngest {
  readonly #router: ApplicationRouter;
  readonly #feed: PipelineFeed;
  readonly counters: IngestCounters = {
    receivedSpans: 0,
    rejectedSpans: 0,
    receivedLogRecords: 0,
    joinedLogRecords: 0,
    rejectedLogRecords: 0,
  };

  constructor(router: ApplicationRouter, feed: PipelineFeed) {
    this.#router = router;
    this.#feed = feed;
  }

  /** Takes the `resourceSpans` of an export request. Never throws on malformed content. */
  traces(resourceSpans: DecodedRequest): IngestResult {
    const byPipeline = new Map<TracePipeline, ReadableSpan[]>();
    const roots: [TracePipeline, ReadableSpan][] = [];
    let accepted = 0;
    let malformed = 0;
    let unrouted = 0;
    for (const entry of resourceSpans) {
      const resourceSpan = fields(entry);
      const resource = keyValues(fields(resourceSpan.resource).attributes);
      for (const scopeEntry of list(resourceSpan.scopeSpans)) {
        const scopeSpans = fields(scopeEntry);
        const origin = spanOrigin(resource, scopeSpans.scope);
        for (const raw of list(scopeSpans.spans)) {
          const span = toForwardedSpan(raw, origin);
          if (span === undefined) {
            malformed += 1;
            continue;
          }
          const pipeline = this.#router.route(span.spanContext().traceId, resource);
          if (pipeline === undefined) {
            unrouted += 1;
            continue;
          }
          accepted += 1;
          if (span.parentSpanContext === undefined) {
            roots.push([pipeline, span]);
            continue;
          }
          let batch = byPipeline.get(pipeline);
          if (batch === undefined) {
            batch = [];
            byPipeline.set(pipeline, batch);
          }
          batch.push(span);
        }
      }
    }
    // Handed over after the answer; roots last: a root completes its trace, so the other spans of
    // this request must be in first.
    for (const [pipeline, spans] of byPipeline) this.#feed.addSpans(pipeline, spans);
    this.#feed.holdRoots(roots);
    const rejected = malformed + unrouted;
    this.counters.receivedSpans += accepted + rejected;
    this.counters.rejectedSpans += rejected;
    return { accepted, rejected, errorMessage: reasons(malformed, unrouted, 'span') };
  }

  /** Takes the `resourceLogs` of an export request. Never throws on malformed content. */
  logs(resourceLogs: DecodedRequest): IngestResult {
    let accepted = 0;
    let malformed = 0;
    let unrouted = 0;
    let joined = 0;
    const routed: [TracePipeline, LlmLogRecord][] = [];
    for (const entry of resourceLogs) {
      const resourceLog = fields(entry);
      const resource = keyValues(fields(resourceLog.resource).attributes);
      for (const scopeEntry of list(resourceLog.scopeLogs)) {
        for (const raw of list(fields(scopeEntry).logRecords)) {
          const log = toLlmLogRecord(raw);
          if (log === 'not-llm') {
            accepted += 1; // nothing of ours: accepted and let go
            continue;
          }
          if (log === 'no-span') {
            malformed += 1;
            continue;
          }
          // Content arrives on log records: the mapping must not warn that it is lost.
          noteContentLogRecord();
          const pipeline = this.#router.route(log.traceId, resource);
          if (pipeline === undefined) {
            unrouted += 1;
            continue;
          }
          routed.push([pipeline, log]);
          accepted += 1;
          joined += 1;
        }
      }
    }
    this.#feed.addLogs(routed);
    const rejected = malformed + unrouted;
    this.counters.receivedLogRecords += accepted + rejected;
    this.counters.joinedLogRecords += joined;
    this.counters.rejectedLogRecords += rejected;
    return { accepted, rejected, errorMessage: reasons(malformed, unrouted, 'log record') };
  }
}

function reasons(malformed: number, unrouted: number, what: string): string {
  const parts: string[] = [];
  if (malformed > 0) {
    parts.push(
      what === 'span'
        ? `${malformed} span(s) without a valid trace id (16 bytes) and span id (8 bytes)`
        : `${malformed} gen_ai.* log record(s) without a valid trace id and span id`,
    );
  }
  if (unrouted > 0) {
    parts.push(
      `${unrouted} ${what}(s) whose resource names no application (no aqm.application.id, aqm.application.name ` +
        'or service.name) while the forwarder has no default application',
    );
  }
  return parts.join('; ');
}
