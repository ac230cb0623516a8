import type { EvaluationTrace } from '@aqm/wire';
import type { TraceGroup } from '../assembly/trace-assembler.js';
import type { PipelineDebug } from '../debug/pipeline-debug.js';
import { prepareTraceRecord, type RecordOptions } from '../mapping/build-record.js';
import type { ResolvedOptions } from '../options.js';
import { isSampledIn } from '../privacy/sampling.js';
import type { DeliveryOutcome } from './queued-trace.js';
import type { ThrottledReporter } from './throttled-reporter.js';
import type { TraceSender } from './trace-sender.js';

/** What {@link TraceIntake} works with, all owned by the pipeline. */
export interface TraceIntakeParts {
  /** Read when each trace completes: `sampleRate` and `shouldExport`. */
  options: Pick<ResolvedOptions, 'sampleRate' | 'shouldExport'>;
  recordOptions: RecordOptions;
  sender: TraceSender;
  reporter: ThrottledReporter;
  debug: PipelineDebug | undefined;
  /** Forgets a completed trace in the assembler, so LLM spans of it ending later start it again. */
  forget: (traceId: string) => void;
  /** Receives the delivery ticket of each trace queued or refused. */
  collect: (ticket: Promise<DeliveryOutcome>) => void;
}

/** Counters of {@link TraceIntake}, as named in `AqmStats`. */
export interface TraceIntakeStats {
  skippedTraces: number;
  sampledOutTraces: number;
  filteredTraces: number;
  tracesWithoutContent: number;
}

/**
 * Takes each completed trace into the sender's queue: sample, map to a record, offer it to
 * `shouldExport`, enqueue, and count what was left out at each step. Never throws.
 */
export class TraceIntake {
  readonly #parts: TraceIntakeParts;
  #skipped = 0;
  #sampledOut = 0;
  #filtered = 0;
  /** Traces whose instrumentation-openai spans got no content (see `tracesWithoutContent`). */
  #withoutContent = 0;

  constructor(parts: TraceIntakeParts) {
    this.#parts = parts;
  }

  /** The counters. */
  stats(): TraceIntakeStats {
    return {
      skippedTraces: this.#skipped,
      sampledOutTraces: this.#sampledOut,
      filteredTraces: this.#filtered,
      tracesWithoutContent: this.#withoutContent,
    };
  }

  /** A completed trace: sample, map, filter, queue. Runs inside `addSpans()` or the assembler's idle timer. */
  take(group: TraceGroup): void {
    const { options, sender, reporter, debug } = this.#parts;
    try {
      if (!isSampledIn(group.traceId, options.sampleRate)) {
        this.#sampledOut += 1;
        debug?.skipped(group.traceId, `sampled out (sampleRate ${options.sampleRate})`);
        return;
      }
      const pending = prepareTraceRecord(group.spans, group.logs, this.#parts.recordOptions);
      if (pending === undefined) {
        this.#skipped += 1;
        debug?.noLlmSpan(group.traceId, group.spans);
        // No record made: LLM spans of this trace that end later (after the app's span) start it again.
        this.#parts.forget(group.traceId);
        return;
      }
      if (pending.contentLoss !== undefined) this.#withoutContent += 1;
      // A full queue refuses the trace before the costly half of mapping: an outage must not
      // make every ended trace cost the app a record it will drop at once.
      const refused = sender.refuseIfFull(pending.minBytes, group.traceId);
      if (refused !== undefined) {
        this.#parts.collect(refused);
        return;
      }
      const record = pending.build();
      if (record === undefined) {
        reporter.report('map', 'error', `Trace ${group.traceId} could not be mapped`);
        return;
      }
      if (!this.#shouldExport(record)) {
        this.#filtered += 1;
        debug?.skipped(group.traceId, 'shouldExport returned false');
        return;
      }
      debug?.queued(record);
      const ticket = sender.enqueue(record);
      this.#parts.collect(ticket);
    } catch (error) {
      reporter.report('map', 'error', `Trace ${group.traceId} could not be mapped: ${String(error)}`);
    }
  }

  /** Asks `shouldExport`; a predicate that throws keeps the record (losing data silently is worse). */
  #shouldExport(record: EvaluationTrace): boolean {
    const predicate = this.#parts.options.shouldExport;
    if (predicate === undefined) return true;
    try {
      return predicate(record) !== false;
    } catch (error) {
      this.#parts.reporter.report(
        'should-export',
        'warn',
        `shouldExport threw for trace ${record.traceId}, so the record is sent: ${String(error)}`,
      );
      return true;
    }
  }
}
