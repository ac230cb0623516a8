import type { LlmLogRecord } from '../mapping/llm-log-record.js';
import type { ReadableSpan } from '../sdk-types.js';
import { AssemblerNotices, maxSpansNotice, openBytesNotice } from './assembler-notices.js';
import {
  type AssemblerNotice,
  type AssemblerOptions,
  type AssemblerStats,
  type CompletionReason,
  LOG_ONLY_WAIT_MS,
  type TraceGroup,
} from './assembler-options.js';
import { readAssemblerSettings } from './assembler-settings.js';
import { CompletedTraces } from './completed-traces.js';
import { IdleTimer } from './idle-timer.js';
import { ModelCallWait } from './model-call-wait.js';
import { OpenBytes } from './open-bytes.js';
import { isLocalRoot, type OpenTrace } from './open-trace.js';

export type { AssemblerNotice, AssemblerOptions, AssemblerStats, CompletionReason, TraceGroup };
export { LOG_ONLY_WAIT_MS };

/**
 * Groups spans (and content log records) by trace as they arrive across export calls and hands
 * each trace over once complete: when its local root span has ended, when no span of it arrived
 * for `traceIdleMs`, or when it reaches `maxSpansPerTrace`. Memory is bounded throughout.
 *
 * @example
 * const assembler = new TraceAssembler({
 *   traceIdleMs: 5000, maxSpansPerTrace: 1000, maxOpenTraces: 1000,
 *   onComplete: (group) => console.log(group.traceId, group.reason),
 * });
 * assembler.addSpans(spans);
 */
export class TraceAssembler {
  readonly #idleMs: number;
  readonly #maxSpans: number;
  readonly #maxOpen: number;
  readonly #maxLogs: number;
  readonly #now: () => number;
  readonly #open = new Map<string, OpenTrace>();
  readonly #bytes: OpenBytes;
  readonly #notices: AssemblerNotices;
  readonly #completed: CompletedTraces;
  readonly #wait: ModelCallWait;
  readonly #timer: IdleTimer;
  #droppedLogs = 0;
  #evicted = 0;

  /** @param options - see {@link AssemblerOptions}; each is checked, with an error naming it. */
  constructor(options: AssemblerOptions) {
    const settings = readAssemblerSettings(options);
    this.#idleMs = settings.idleMs;
    this.#maxSpans = settings.maxSpans;
    this.#maxOpen = settings.maxOpen;
    this.#maxLogs = settings.maxLogs;
    this.#now = settings.now;
    this.#bytes = new OpenBytes(settings.maxValueChars, settings.maxOpenBytes);
    this.#notices = new AssemblerNotices(settings.onNotice);
    this.#completed = new CompletedTraces(settings.recentTraceIds, settings.onComplete, this.#notices);
    this.#wait = new ModelCallWait(settings.maxOpenModelCalls, settings.heldWaitMs, this.#notices, this.#now);
    this.#timer = new IdleTimer(() => this.#sweep(), this.#now);
    // Stopped for good: every later ensure() is a no-op, so nothing fires after a freeze.
    if (options.idleTimer === false) this.#timer.stop();
  }

  /** Traces being assembled (including those known so far only from log records). */
  get openTraces(): number {
    return this.#open.size;
  }

  /** Whether trace `traceId` is being assembled now (its record not made yet). */
  isOpen(traceId: string): boolean {
    return this.#open.has(traceId);
  }

  /**
   * Adds ended spans. Traces they complete are handed to `onComplete` before this returns; a
   * root span completes its trace after the whole batch is added, so children listed after their
   * root in the same batch are not lost. A trace whose root ends while a model call of it is still
   * open (see {@link TraceAssembler.modelCallStarted}) waits for that call's span instead.
   *
   * @example
   * assembler.addSpans([childSpan, rootSpan]); // onComplete runs once, reason 'root-ended'
   */
  addSpans(spans: readonly ReadableSpan[]): void {
    const now = this.#now();
    const rootsEnded: OpenTrace[] = [];
    for (const span of spans) {
      this.#wait.ended(span);
      let traceId: string;
      try {
        traceId = span.spanContext().traceId;
      } catch {
        continue;
      }
      let entry = this.#open.get(traceId);
      if (entry === undefined) {
        // Open and recently completed ids never overlap, so only a new id needs the second lookup.
        if (this.#completed.isLateSpan(traceId)) continue;
        entry = this.#create(traceId, now);
      }
      entry.spans.push(this.#bytes.holdSpan(entry, span));
      entry.lastActivityMs = now;
      if (!entry.rootEnded && isLocalRoot(span)) {
        entry.rootEnded = true;
        rootsEnded.push(entry);
      } else if (entry.heldSinceMs !== undefined) {
        rootsEnded.push(entry); // perhaps the call it waits for
      }
      if (entry.spans.length >= this.#maxSpans) this.#completeAtMaxSpans(entry);
      if (this.#bytes.over) this.#shedBytes();
    }
    for (const entry of rootsEnded) {
      if (this.#open.get(entry.traceId) !== entry) continue;
      if (!this.#wait.holds(entry, now)) this.#complete(entry, 'root-ended');
    }
    if (this.#open.size > 0) this.#timer.ensure(now + this.#idleMs);
  }

  /**
   * Remembers a model call whose span just started (from `AqmSpanProcessor.onStart`), until the
   * span ends. When its trace's root ends first, the trace waits for it; if the trace then
   * completes without it (idle, flush, eviction), the record takes the span as it is, failed.
   */
  modelCallStarted(span: ReadableSpan): void {
    this.#wait.started(span);
  }

  /**
   * Joins a content log record to its trace. It may arrive before its span has ended; a trace
   * with no open entry gets one (bounded like the rest).
   *
   * @example
   * assembler.addLog({ traceId, spanId, eventName: 'gen_ai.choice', body, attributes: {} });
   */
  addLog(log: LlmLogRecord): void {
    if (typeof log !== 'object' || log === null || typeof log.traceId !== 'string') return;
    if (this.#completed.isLateLog(log.traceId)) return;
    const now = this.#now();
    const entry = this.#open.get(log.traceId) ?? this.#create(log.traceId, now);
    if (entry.logs.length >= this.#maxLogs) {
      this.#droppedLogs += 1;
      return;
    }
    entry.logs.push(this.#bytes.holdLog(entry, log));
    if (entry.spans.length === 0) entry.lastActivityMs = now;
    if (this.#bytes.over) {
      this.#shedBytes();
      if (this.#open.size === 0) return;
    }
    this.#timer.ensure(this.#deadline(entry));
  }

  /**
   * Forgets that a trace completed, so that spans of it ending later start it again instead of
   * being counted late. For a trace that made no record (no LLM span had ended yet when its root
   * did: LangSmith ends its runs' spans from a background queue, after the app's span): its model
   * calls still make one when they end.
   *
   * @example
   * assembler.forget(group.traceId);
   */
  forget(traceId: string): void {
    this.#completed.forget(traceId);
  }

  /**
   * Completes every open trace that has spans now (reason `flush`). Traces known only from log
   * records keep waiting for their spans.
   *
   * @example
   * assembler.flushAll();
   */
  flushAll(): void {
    for (const entry of [...this.#open.values()]) {
      if (entry.spans.length > 0) this.#complete(entry, 'flush');
    }
  }

  /**
   * Counters: open traces, late spans and logs, evictions, dropped logs, callback errors.
   *
   * @example
   * const { lateSpans } = assembler.stats();
   */
  stats(): AssemblerStats {
    return {
      openTraces: this.#open.size,
      lateSpans: this.#completed.lateSpans,
      evictedTraces: this.#evicted,
      lateLogs: this.#completed.lateLogs,
      droppedLogs: this.#droppedLogs,
      callbackErrors: this.#completed.callbackErrors,
      unfinishedCalls: this.#wait.unfinishedCalls,
      openModelCalls: this.#wait.openCalls,
      openTraceBytes: this.#bytes.total,
      evictedForBytes: this.#bytes.evicted,
    };
  }

  /**
   * Stops the idle timer for good and forgets traces known only from logs (no span can complete
   * them any more). Call `flushAll()` first to hand over what is open.
   *
   * @example
   * assembler.flushAll();
   * assembler.shutdown();
   */
  shutdown(): void {
    this.#timer.stop();
    for (const entry of [...this.#open.values()]) {
      if (entry.spans.length === 0) this.#complete(entry, 'flush');
    }
  }

  #create(traceId: string, now: number): OpenTrace {
    if (this.#open.size >= this.#maxOpen) {
      // Map order is creation order: the first entry is the oldest.
      const oldest = this.#open.values().next().value;
      if (oldest !== undefined) {
        this.#evicted += 1;
        this.#complete(oldest, 'evicted');
      }
    }
    const entry: OpenTrace = {
      traceId,
      spans: [],
      logs: [],
      lastActivityMs: now,
      rootEnded: false,
      bytes: 0,
    };
    this.#open.set(traceId, entry);
    return entry;
  }

  /** A trace at `maxSpansPerTrace` goes as it is; its later spans are dropped (said once). */
  #completeAtMaxSpans(entry: OpenTrace): void {
    this.#complete(entry, 'max-spans');
    this.#notices.sayOnce('max-spans', () => maxSpansNotice(entry.traceId, this.#maxSpans));
  }

  /** Completes the oldest open traces until what they hold fits `maxOpenBytes` again. */
  #shedBytes(): void {
    let shed = 0;
    while (this.#bytes.over && this.#open.size > 0) {
      const oldest = this.#open.values().next().value as OpenTrace;
      this.#bytes.evicted += 1;
      shed += 1;
      this.#complete(oldest, 'evicted');
    }
    this.#notices.say('open-bytes', openBytesNotice(this.#bytes.maxBytes, shed));
  }

  #deadline(entry: OpenTrace): number {
    return (
      this.#wait.deadline(entry) ??
      entry.lastActivityMs +
        (entry.spans.length > 0 ? this.#idleMs : Math.max(this.#idleMs, LOG_ONLY_WAIT_MS))
    );
  }

  #complete(entry: OpenTrace, reason: CompletionReason): void {
    // The idle timer stays armed when the last open trace completes, and stops when it fires with
    // nothing open: clearing and arming it again for every trace cost about 4% of the time span.end()
    // spends in this processor at a steady rate (bench/where-the-time-goes.md).
    this.#open.delete(entry.traceId);
    this.#bytes.release(entry);
    if (entry.spans.length === 0) {
      // Logs whose span never came: nothing to map. Not remembered, so the span may still come.
      this.#droppedLogs += entry.logs.length;
      return;
    }
    this.#completed.remember(entry.traceId);
    this.#wait.addUnfinished(entry);
    this.#completed.handOver({ traceId: entry.traceId, spans: entry.spans, logs: entry.logs, reason });
  }

  #sweep(): void {
    const now = this.#now();
    let next = Number.POSITIVE_INFINITY;
    for (const entry of [...this.#open.values()]) {
      const deadline = this.#deadline(entry);
      if (deadline <= now) this.#complete(entry, 'idle');
      else next = Math.min(next, deadline);
    }
    if (this.#open.size > 0 && next !== Number.POSITIVE_INFINITY) this.#timer.ensure(next);
  }

  /** Whether the idle timer is armed (for tests). */
  get timerArmed(): boolean {
    return this.#timer.armed;
  }
}
