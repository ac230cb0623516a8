import { type AqmStats, emptyStats } from '@aqm/otel/pipeline';
import type { IngestCounters } from './ingest.js';

/** `stats()` of a running forwarder. */
export interface ForwarderStats extends IngestCounters {
  /** Answers given, by route and status, e.g. `{ 'POST /v1/traces 200': 12 }`. */
  responses: Record<string, number>;
  /**
   * Answers given before a request was routed, by status, e.g. `{ '408': 1 }`: not received in
   * time (408), headers too large (431), not well-formed HTTP or a path that is no URL (400).
   */
  responsesBeforeRouting: Record<string, number>;
  /**
   * Answers of the gRPC receiver, by method and status, e.g.
   * `{ '/opentelemetry.proto.collector.trace.v1.TraceService/Export OK': 12 }`. Refusals grpc-js
   * gives itself (a message past `maxBodyBytes`) are not seen here.
   */
  grpcResponses: Record<string, number>;
  /** Requests answered 503: the queue full, or an application a resource names still being looked up. */
  refusedQueueFull: number;
  /** Bytes of request bodies being received now (inflated), over all requests. */
  bodyBytesInFlight: number;
  /** The most bytes of request bodies received at once so far (at most `maxBodyBytesInFlight`). */
  bodyBytesInFlightPeak: number;
  /** Requests answered 503 because `maxBodyBytesInFlight` was reached. */
  refusedBodyBytesInFlight: number;
  /** Root spans waiting out `rootGraceMs` before they complete their trace. */
  heldRoots: number;
  /** Applications with a pipeline (1 unless `applicationFromResource`). */
  applications: number;
  /** The pipelines' counters, summed over applications. */
  pipeline: AqmStats;
}

/** Sums the counters of several pipelines. */
export function sumPipelineStats(all: readonly AqmStats[]): AqmStats {
  const total = emptyStats();
  for (const stats of all) {
    for (const [key, value] of Object.entries(stats)) {
      if (typeof value === 'number') {
        const totals = total as unknown as Record<string, number>;
        totals[key] = (totals[key] ?? 0) + value;
      }
    }
    if (stats.disk !== undefined) total.disk = addDisk(total.disk, stats.disk);
    total.droppedTraces.total += stats.droppedTraces.total;
    for (const [reason, count] of Object.entries(stats.droppedTraces.byReason)) {
      total.droppedTraces.byReason[reason] = (total.droppedTraces.byReason[reason] ?? 0) + count;
    }
  }
  return total;
}

type DiskStats = NonNullable<AqmStats['disk']>;

/**
 * Adds one pipeline's disk view to a total. Each pipeline has a spill folder of its own (the
 * default application `persistDir`, the others a folder under it), so the folders' figures add up
 * like what each pipeline did; the oldest file is the oldest of all.
 */
function addDisk(total: DiskStats | undefined, disk: DiskStats): DiskStats {
  if (total === undefined) return { ...disk };
  return {
    writable: total.writable && disk.writable,
    files: total.files + disk.files,
    traces: total.traces + disk.traces,
    bytes: total.bytes + disk.bytes,
    oldestAgeMs: Math.max(total.oldestAgeMs, disk.oldestAgeMs),
    spilledTraces: total.spilledTraces + disk.spilledTraces,
    replayedTraces: total.replayedTraces + disk.replayedTraces,
    corruptFiles: total.corruptFiles + disk.corruptFiles,
    loggedTraces: total.loggedTraces + disk.loggedTraces,
  };
}

/** The `persistDir` lines, when there is one. */
function diskLines(disk: DiskStats | undefined): string[] {
  if (disk === undefined) return [];
  return [
    line(
      'aqm_forwarder_disk_writable',
      'Whether persistDir takes writes now (1) or refused the last one (0).',
      'gauge',
      [['', disk.writable ? 1 : 0]],
    ),
    line('aqm_forwarder_disk_files', 'Spill files in persistDir.', 'gauge', [['', disk.files]]),
    line('aqm_forwarder_disk_traces', 'Traces in the spill files of persistDir.', 'gauge', [
      ['', disk.traces],
    ]),
    line('aqm_forwarder_disk_bytes', 'Bytes of the spill files of persistDir.', 'gauge', [['', disk.bytes]]),
    line(
      'aqm_forwarder_disk_oldest_age_seconds',
      'Age of the oldest spill file; 0 when there is none.',
      'gauge',
      [['', disk.oldestAgeMs / 1000]],
    ),
    line('aqm_forwarder_disk_spilled_traces_total', 'Traces written to persistDir.', 'counter', [
      ['', disk.spilledTraces],
    ]),
    line(
      'aqm_forwarder_disk_replayed_traces_total',
      'Traces read back from persistDir and accepted by the service.',
      'counter',
      [['', disk.replayedTraces]],
    ),
    line(
      'aqm_forwarder_disk_logged_traces_total',
      "Traces written to the pipelines' write-ahead logs before they counted as accepted (--persist-mode write-ahead).",
      'counter',
      [['', disk.loggedTraces]],
    ),
    line(
      'aqm_forwarder_disk_corrupt_files_total',
      'Spill files moved to corrupt/ as unreadable.',
      'counter',
      [['', disk.corruptFiles]],
    ),
  ];
}

function line(name: string, help: string, type: 'counter' | 'gauge', samples: [string, number][]): string {
  const body = samples.map(([labels, value]) => `${name}${labels} ${value}`).join('\n');
  return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${body}\n`;
}

function labelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/**
 * The stats in the Prometheus text exposition format (version 0.0.4). Only counts: no key,
 * token, application name or trace content.
 *
 * @example
 * reply.type('text/plain; version=0.0.4').send(prometheusText(forwarder.stats()));
 */
export function prometheusText(stats: ForwarderStats): string {
  const p = stats.pipeline;
  const responses = Object.entries(stats.responses).map(([key, count]): [string, number] => {
    const [method = '', path = '', code = ''] = key.split(' ');
    return [`{method="${labelValue(method)}",path="${labelValue(path)}",code="${labelValue(code)}"}`, count];
  });
  // Refused before a method and path were known: both labels empty.
  for (const [code, count] of Object.entries(stats.responsesBeforeRouting))
    responses.push([`{method="",path="",code="${labelValue(code)}"}`, count]);
  const grpcResponses = Object.entries(stats.grpcResponses).map(([key, count]): [string, number] => {
    const [method = '', code = ''] = key.split(' ');
    return [`{method="${labelValue(method)}",code="${labelValue(code)}"}`, count];
  });
  const dropped = Object.entries(p.droppedTraces.byReason).map(([reason, count]): [string, number] => [
    `{reason="${labelValue(reason)}"}`,
    count,
  ]);
  return [
    line(
      'aqm_forwarder_http_responses_total',
      'Answers given, by route and status code (method and path empty for requests refused before routing).',
      'counter',
      responses,
    ),
    ...(grpcResponses.length === 0
      ? []
      : [
          line(
            'aqm_forwarder_grpc_responses_total',
            'Answers of the OTLP/gRPC receiver, by method and status code.',
            'counter',
            grpcResponses,
          ),
        ]),
    line('aqm_forwarder_spans_received_total', 'Spans received.', 'counter', [['', stats.receivedSpans]]),
    line('aqm_forwarder_spans_rejected_total', 'Spans refused (counted in partial_success).', 'counter', [
      ['', stats.rejectedSpans],
    ]),
    line('aqm_forwarder_log_records_received_total', 'Log records received.', 'counter', [
      ['', stats.receivedLogRecords],
    ]),
    line('aqm_forwarder_log_records_joined_total', 'gen_ai.* log records joined to their trace.', 'counter', [
      ['', stats.joinedLogRecords],
    ]),
    line('aqm_forwarder_log_records_rejected_total', 'Log records refused.', 'counter', [
      ['', stats.rejectedLogRecords],
    ]),
    line(
      'aqm_forwarder_requests_refused_queue_full_total',
      'Requests answered 503 because the queue was full.',
      'counter',
      [['', stats.refusedQueueFull]],
    ),
    line(
      'aqm_forwarder_requests_refused_body_bytes_in_flight_total',
      'Requests answered 503 because the bodies being received reached maxBodyBytesInFlight.',
      'counter',
      [['', stats.refusedBodyBytesInFlight]],
    ),
    line(
      'aqm_forwarder_body_bytes_in_flight',
      'Bytes of request bodies being received (inflated), over all requests.',
      'gauge',
      [['', stats.bodyBytesInFlight]],
    ),
    line(
      'aqm_forwarder_body_bytes_in_flight_peak',
      'The most bytes of request bodies received at once since start.',
      'gauge',
      [['', stats.bodyBytesInFlightPeak]],
    ),
    line('aqm_forwarder_traces_exported_total', 'Traces the service accepted.', 'counter', [
      ['', p.exportedTraces],
    ]),
    line(
      'aqm_forwarder_traces_dropped_total',
      'Traces given up, by reason.',
      'counter',
      dropped.length > 0 ? dropped : [['{reason="none"}', 0]],
    ),
    line(
      'aqm_forwarder_traces_skipped_total',
      'Completed traces without an LLM span (not sent).',
      'counter',
      [['', p.skippedTraces]],
    ),
    line('aqm_forwarder_traces_sampled_out_total', 'Traces left out by sampleRate.', 'counter', [
      ['', p.sampledOutTraces],
    ]),
    line('aqm_forwarder_traces_filtered_total', 'Records shouldExport said no to.', 'counter', [
      ['', p.filteredTraces],
    ]),
    line(
      'aqm_forwarder_traces_without_content_total',
      'Traces sent with an empty prompt and response: spans of @opentelemetry/instrumentation-openai without gen_ai log records (the app exports no logs here) or with records without content (capture off).',
      'counter',
      [['', p.tracesWithoutContent]],
    ),
    line(
      'aqm_forwarder_spans_late_total',
      'Spans received after their trace was sent (its root span came first, or rootGraceMs ran out): not in its record.',
      'counter',
      [['', p.lateSpans]],
    ),
    line('aqm_forwarder_retries_total', 'Requests to the service sent again.', 'counter', [['', p.retries]]),
    line('aqm_forwarder_traces_queued', 'Traces held for delivery (queued and in flight).', 'gauge', [
      ['', p.queuedTraces],
    ]),
    line('aqm_forwarder_queued_bytes', 'JSON bytes of the traces held.', 'gauge', [['', p.queuedBytes]]),
    line('aqm_forwarder_traces_open', 'Traces being assembled.', 'gauge', [['', p.openTraces]]),
    line('aqm_forwarder_root_spans_held', 'Root spans waiting out rootGraceMs.', 'gauge', [
      ['', stats.heldRoots],
    ]),
    line('aqm_forwarder_applications', 'Applications with a pipeline.', 'gauge', [['', stats.applications]]),
    ...diskLines(p.disk),
  ].join('');
}
