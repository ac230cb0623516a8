import type { EvaluationTrace } from '@aqm/wire';
import { printableLine } from '@aqm/wire/light';
import type { SendFailure } from '../export/send-outcome.js';
import type { ResolvedOptions } from '../options.js';
import type { ReadableSpan } from '../sdk-types.js';
import { attributeKeysSeen, configLine, cut, idList } from './debug-format.js';
import type { DebugSink } from './debug-switch.js';

/** Summaries of records waiting for their answer; past this the oldest is forgotten. */
const MAX_SUMMARIES = 4096;

const NEXT_STEP: Record<SendFailure['kind'], string> = {
  retry: 'retried with backoff',
  'too-large': 'split, or shrunk when alone',
  rejected: 'the traces it names are dropped, the rest resent',
  pause: 'sending paused until the key or application is fixed',
  failed: 'dropped',
};

/**
 * The debug lines of one pipeline (`AQM_DEBUG=1` or `OTEL_LOG_LEVEL=debug`): its configuration,
 * each trace sent or skipped and why, each drop with its reason, each disk write and replay. One
 * exists only when debug is on, so callers write `debug?.sent(...)` and build nothing when it is
 * off. Every line is made printable (control characters in quoted text shown as `\uXXXX`) before
 * it reaches any logger.
 */
export class PipelineDebug {
  readonly #sink: DebugSink;
  /** Per queued trace: what its record holds, for the line that says it was sent. */
  readonly #summaries = new Map<string, string>();

  constructor(sink: DebugSink) {
    this.#sink = sink;
  }

  /** Emits one line (made printable). Never throws. */
  line(text: string): void {
    try {
      this.#sink(printableLine(text));
    } catch {
      // A logger that throws must not take the pipeline down.
    }
  }

  config(options: ResolvedOptions, application: string): void {
    this.line(configLine(options, application));
  }

  skipped(traceId: string, reason: string): void {
    this.line(`trace ${traceId} skipped: ${reason}`);
  }

  /** A trace with no LLM span: the attribute keys seen on its spans say what it was instead. */
  noLlmSpan(traceId: string, spans: readonly ReadableSpan[]): void {
    this.skipped(
      traceId,
      `no LLM span among its ${spans.length} span(s); attribute keys seen: ${attributeKeysSeen(spans)}`,
    );
  }

  /** A record was queued: remembered for the line that says it was sent. */
  queued(record: EvaluationTrace): void {
    const spans = record.spans?.length ?? 0;
    const model = record.model === undefined ? '(none)' : cut(record.model, 80);
    const summary = `prompt ${record.prompt.length} chars, response ${record.response.length} chars, model ${model}, status ${record.status}, ${spans} span(s)`;
    if (this.#summaries.size >= MAX_SUMMARIES) {
      const oldest = this.#summaries.keys().next().value;
      if (oldest !== undefined) this.#summaries.delete(oldest);
    }
    this.#summaries.set(record.traceId, summary);
  }

  /** The service accepted a request: one line per trace in it. */
  sent(traceIds: readonly string[]): void {
    for (const traceId of traceIds) {
      const summary = this.#summaries.get(traceId) ?? 'read back from persistDir';
      this.#summaries.delete(traceId);
      this.line(
        `trace ${traceId} sent: ${summary}; accepted by the service (HTTP 2xx, request of ${traceIds.length} trace(s))`,
      );
    }
  }

  /** A request was not accepted: the service's answer (or the connection's error) and what follows. */
  requestFailed(traceIds: readonly string[], failure: SendFailure): void {
    this.line(
      `request of ${traceIds.length} trace(s) (${idList(traceIds)}) not accepted: ${cut(failure.description, 300)}; ${NEXT_STEP[failure.kind]}`,
    );
  }

  /** Traces given up, with the reason (the `droppedTraces.byReason` key) and what happened. */
  dropped(reason: string, count: number, message: string, traceIds: readonly string[] = []): void {
    for (const traceId of traceIds) this.#summaries.delete(traceId);
    const ids = traceIds.length === 0 ? '' : ` (${idList(traceIds)})`;
    this.line(`dropped ${count} trace(s)${ids}, reason ${reason}: ${message}`);
  }

  /** A spill file was written. */
  wroteToDisk(dir: string, traces: number, file: string | undefined, bytes: number | undefined): void {
    const what = file === undefined ? '' : ` as ${file}${bytes === undefined ? '' : ` (${bytes} bytes)`}`;
    this.line(`persistDir: wrote ${traces} trace(s) to ${dir}${what}`);
  }

  /** A spill file is being sent again. */
  replaying(dir: string, file: string, traces: number): void {
    this.line(`persistDir: replaying ${file} (${traces} trace(s)) from ${dir}`);
  }

  /** Every record of a replayed file settled. */
  replayed(file: string, outcomes: readonly string[], removed: boolean): void {
    const count = (outcome: string) => outcomes.filter((item) => item === outcome).length;
    this.line(
      `persistDir: ${file}: ${count('delivered')} delivered, ${count('persisted')} kept on disk, ` +
        `${count('dropped')} dropped; the file was ${removed ? 'deleted' : 'returned to the folder'}`,
    );
  }
}
