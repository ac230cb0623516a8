// A probe of issue 22's lever, not the product: a SpanProcessor whose onEnd() only copies the ended
// span's data into a plain object; once per event-loop turn the copies go to a worker thread
// (structured clone), which runs @aqm/otel's TracePipeline (assembly, mapping, JSON, queue, sender)
// unchanged. forceFlush()/shutdown() are messages answered once the worker's pipeline resolved;
// stats() is the snapshot the worker sent with its last answer. Bench variant `ours-worker`.
import { Worker } from 'node:worker_threads';

const WORKER = new URL('./worker-pipeline.mjs', import.meta.url);

export class WorkerSpanProcessor {
  #worker;
  #pending = [];
  #scheduled = false;
  #waiters = new Map();
  #nextId = 0;
  #stats;

  #postMs;
  #postSpans;

  /**
   * @param options AqmSpanProcessor options (plain data: they are cloned into the worker).
   * @param batching `postMs` 0 posts once per event-loop turn (setImmediate); otherwise every
   *   `postMs` (unref'd timer) or as soon as `postSpans` spans wait, whichever comes first.
   */
  constructor(options, { postMs = 0, postSpans = 512 } = {}) {
    this.#postMs = postMs;
    this.#postSpans = postSpans;
    this.#worker = new Worker(WORKER, { workerData: { options } });
    this.#worker.unref();
    this.#worker.on('message', (message) => {
      this.#stats = message.stats;
      const resolve = this.#waiters.get(message.id);
      this.#waiters.delete(message.id);
      if (this.#waiters.size === 0) this.#worker.unref();
      resolve?.();
    });
  }

  onStart() {}

  onEnd(span) {
    const context = span.spanContext();
    if ((context.traceFlags & 1) === 0) return;
    this.#pending.push({
      name: span.name,
      kind: span.kind,
      context,
      parentSpanContext: span.parentSpanContext,
      startTime: span.startTime,
      endTime: span.endTime,
      status: span.status,
      attributes: span.attributes,
      events: span.events,
      resource: span.resource.attributes,
      scope: { name: span.instrumentationScope.name, version: span.instrumentationScope.version },
    });
    if (this.#postMs > 0 && this.#pending.length >= this.#postSpans) {
      this.#post();
      return;
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      if (this.#postMs > 0) setTimeout(() => this.#post(), this.#postMs).unref();
      else setImmediate(() => this.#post());
    }
  }

  #post() {
    // (with a timer armed, a post by count leaves it armed: it then posts what came since, or nothing)
    this.#scheduled = false;
    if (this.#pending.length === 0) return;
    const spans = this.#pending;
    this.#pending = [];
    this.#worker.postMessage({ type: 'spans', spans });
  }

  #ask(type) {
    this.#post();
    const id = ++this.#nextId;
    // Waiting on the worker keeps the process alive, as the in-thread flush does.
    this.#worker.ref();
    return new Promise((resolve) => {
      this.#waiters.set(id, resolve);
      this.#worker.postMessage({ type, id });
    });
  }

  forceFlush() {
    return this.#ask('flush');
  }

  async shutdown() {
    await this.#ask('shutdown');
    await this.#worker.terminate();
  }

  stats() {
    return this.#stats;
  }
}
