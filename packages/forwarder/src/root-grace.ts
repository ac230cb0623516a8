import type { ReadableSpan, TracePipeline } from '@aqm/otel/pipeline';

/** Roots released at a time; the clock is read between slices. */
const RELEASE_SLICE = 16;
/**
 * How long one turn of the event loop may spend releasing roots (each completes a trace: mapping,
 * serialising) before the roots still due wait for the next turn, after the I/O that came meanwhile.
 * A count per turn instead would cap the release rate at the loop's turn rate: at 6,000 traces/s
 * with 256-trace requests arriving, 32 a turn fell behind and roots piled up far past their grace.
 */
const RELEASE_BUDGET_MS = 5;

interface HeldRoot {
  dueMs: number;
  pipeline: TracePipeline;
  span: ReadableSpan;
  /** Called once the root is in its pipeline. */
  done: (() => void) | undefined;
}

/**
 * Holds each root span for `graceMs` before it reaches the pipeline. In a process, a root span
 * ends after its children and content log records were handed over; over OTLP, spans and log
 * records travel in separate requests from separate batch processors (and, through a Collector,
 * from separate services), so the root may come first. Until the root arrives a trace stays
 * open; holding the root briefly lets what was sent with or just after it join the trace.
 * Memory is bounded: past `maxHeld`, the oldest root goes on at once.
 */
export class RootGrace {
  readonly #graceMs: number;
  readonly #maxHeld: number;
  readonly #now: () => number;
  readonly #elapsedClock: () => number;
  /** FIFO by arrival, hence by due time (the grace is constant). */
  #queue: HeldRoot[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #immediate: ReturnType<typeof setImmediate> | undefined;

  /**
   * @param now - the clock of due times (ms).
   * @param elapsedClock - the monotonic clock a turn's release budget is measured with (ms).
   */
  constructor(
    graceMs: number,
    maxHeld: number,
    now: () => number = Date.now,
    elapsedClock: () => number = () => performance.now(),
  ) {
    this.#graceMs = graceMs;
    this.#maxHeld = maxHeld;
    this.#now = now;
    this.#elapsedClock = elapsedClock;
  }

  /** Roots waiting. */
  get held(): number {
    return this.#queue.length - this.#head;
  }

  /**
   * Holds `span` (a root) for the grace period; with no grace it goes on at once. `done` is
   * called once it is in its pipeline.
   */
  hold(pipeline: TracePipeline, span: ReadableSpan, done?: () => void): void {
    if (this.#graceMs === 0) {
      pipeline.addSpans([span]);
      done?.();
      return;
    }
    if (this.held >= this.#maxHeld) this.#release(1);
    this.#queue.push({ dueMs: this.#now() + this.#graceMs, pipeline, span, done });
    if (this.#immediate === undefined) this.#timer ??= this.#arm(this.#graceMs);
  }

  /** Hands every held root to its pipeline now (before a flush or shutdown). */
  releaseAll(): void {
    this.#release(this.held);
  }

  /** Releases everything and stops the timer. */
  close(): void {
    this.releaseAll();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#immediate !== undefined) clearImmediate(this.#immediate);
    this.#timer = undefined;
    this.#immediate = undefined;
  }

  #arm(delayMs: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => this.#onTimer(), Math.max(0, delayMs));
    // A forwarder process is kept alive by its server; a held root must not keep it up alone.
    timer.unref();
    return timer;
  }

  #onTimer(): void {
    this.#timer = undefined;
    this.#immediate = undefined;
    const now = this.#now();
    const started = this.#elapsedClock();
    // Slices until nothing is due or the turn's budget is spent: each released root completes a
    // trace, and hundreds at once would hold the loop, and every OTLP request waiting on it.
    let due = this.#dueCount(now);
    while (due > 0) {
      this.#release(due);
      if (this.#elapsedClock() - started >= RELEASE_BUDGET_MS) break;
      due = this.#dueCount(now);
    }
    if (this.held === 0) return;
    if (this.#dueCount(now) > 0) {
      // More are due: the next turn, after the I/O that waited (a timer would add its 1 ms floor).
      this.#immediate = setImmediate(() => this.#onTimer());
      this.#immediate.unref();
    } else this.#timer = this.#arm((this.#queue[this.#head] as HeldRoot).dueMs - now);
  }

  /** How many of the oldest roots (at most a slice) are due at `now`. */
  #dueCount(now: number): number {
    let due = 0;
    while (
      due < RELEASE_SLICE &&
      this.#head + due < this.#queue.length &&
      (this.#queue[this.#head + due] as HeldRoot).dueMs <= now
    ) {
      due += 1;
    }
    return due;
  }

  /** Releases the `count` oldest roots, one `addSpans` call per pipeline. */
  #release(count: number): void {
    if (count <= 0) return;
    const end = this.#head + count;
    const byPipeline = new Map<TracePipeline, ReadableSpan[]>();
    const done: (() => void)[] = [];
    for (let i = this.#head; i < end; i += 1) {
      const root = this.#queue[i] as HeldRoot;
      const spans = byPipeline.get(root.pipeline);
      if (spans === undefined) byPipeline.set(root.pipeline, [root.span]);
      else spans.push(root.span);
      if (root.done !== undefined) done.push(root.done);
    }
    this.#head = end;
    // Compact once the released prefix dominates, so the array does not grow without bound.
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    for (const [pipeline, spans] of byPipeline) pipeline.addSpans(spans);
    for (const callback of done) callback();
  }
}
