import type { LlmLogRecord, ReadableSpan, TracePipeline } from '@aqm/otel/pipeline';
import type { RootGrace } from './root-grace.js';

/** Called once an item is in its pipeline (or, for roots, held): ends the admission's reservation. */
export type HandedOver = () => void;

/** A root span, its pipeline, and what to call once it reaches the pipeline. */
export type RootToHold = [TracePipeline, ReadableSpan, HandedOver?];

type FeedItem =
  | { kind: 'spans'; pipeline: TracePipeline; spans: ReadableSpan[]; done?: HandedOver }
  | { kind: 'roots'; roots: RootToHold[] }
  | { kind: 'logs'; logs: [TracePipeline, LlmLogRecord][]; done?: HandedOver };

function sizeOf(item: FeedItem): number {
  return item.kind === 'spans'
    ? item.spans.length
    : item.kind === 'roots'
      ? item.roots.length
      : item.logs.length;
}

/**
 * Hands the items of answered requests to the pipelines after the answer is written, a bounded
 * slice per turn of the event loop. Assembling, mapping and serialising the traces (most of the
 * forwarder's work per trace) then never delays the answer to another request by more than one
 * slice. Order is kept: a request's spans before its roots, requests in arrival order. What waits
 * here counts toward the queue bound (`pending`), so an overload answers 503 instead of growing.
 */
export class PipelineFeed {
  readonly #roots: RootGrace;
  readonly #slice: number;
  #queue: FeedItem[] = [];
  #head = 0;
  #pending = 0;
  #scheduled = false;

  /** @param slice - items (spans or log records) handed over per turn. */
  constructor(roots: RootGrace, slice = 256) {
    this.#roots = roots;
    this.#slice = slice;
  }

  /** Items waiting. */
  get pending(): number {
    return this.#pending;
  }

  /** Queues spans (not roots) of one pipeline, in slices; `done` is called once the last is handed over. */
  addSpans(pipeline: TracePipeline, spans: ReadableSpan[], done?: HandedOver): void {
    for (let at = 0; at < spans.length; at += this.#slice) {
      const last = at + this.#slice >= spans.length;
      this.#push({
        kind: 'spans',
        pipeline,
        spans: spans.slice(at, at + this.#slice),
        done: last ? done : undefined,
      });
    }
  }

  /** Queues root spans, to be held for the root grace once their request's other spans are in. */
  holdRoots(roots: RootToHold[]): void {
    if (roots.length > 0) this.#push({ kind: 'roots', roots });
  }

  /** Queues content log records; `done` is called once they are in their pipelines. */
  addLogs(logs: [TracePipeline, LlmLogRecord][], done?: HandedOver): void {
    if (logs.length > 0) this.#push({ kind: 'logs', logs, done });
  }

  /** Hands everything over now (before a shutdown). */
  drain(): void {
    while (this.#head < this.#queue.length) this.#run(this.#queue[this.#head++] as FeedItem);
    this.#queue = [];
    this.#head = 0;
  }

  #push(item: FeedItem): void {
    this.#queue.push(item);
    this.#pending += sizeOf(item);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#turn());
    }
  }

  #turn(): void {
    this.#scheduled = false;
    let budget = this.#slice;
    while (budget > 0 && this.#head < this.#queue.length) {
      const item = this.#queue[this.#head++] as FeedItem;
      budget -= sizeOf(item);
      this.#run(item);
    }
    if (this.#head >= this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else {
      this.#scheduled = true;
      setImmediate(() => this.#turn());
    }
  }

  #run(item: FeedItem): void {
    this.#pending -= sizeOf(item);
    if (item.kind === 'spans') {
      item.pipeline.addSpans(item.spans);
      item.done?.();
    } else if (item.kind === 'roots')
      for (const [pipeline, span, done] of item.roots) this.#roots.hold(pipeline, span, done);
    else {
      for (const [pipeline, log] of item.logs) pipeline.addLog(log);
      item.done?.();
    }
  }
}
