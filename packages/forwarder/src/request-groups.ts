import type { LlmLogRecord, ReadableSpan, TracePipeline } from '@aqm/otel/pipeline';
import type { ApplicationRouter, Destination } from './application-router.js';

/** The spans or log records of one request that go to one destination. */
export interface RequestGroup {
  destination: Destination;
  /** Spans other than roots, in request order. */
  spans: ReadableSpan[];
  roots: ReadableSpan[];
  logs: LlmLogRecord[];
  traceIds: Set<string>;
  /** Spans, roots and log records. */
  items: number;
}

type Item = { span: ReadableSpan; root: boolean } | { log: LlmLogRecord };

/**
 * Sorts a request's items by destination. Every item of one trace goes where the trace's first
 * item went (a trace that crosses services stays whole). Bounded by the request's size.
 */
export class RequestGroups {
  readonly #router: ApplicationRouter;
  readonly #byKey = new Map<unknown, RequestGroup>();
  readonly #byTrace = new Map<string, RequestGroup>();

  constructor(router: ApplicationRouter) {
    this.#router = router;
  }

  get groups(): RequestGroup[] {
    return [...this.#byKey.values()];
  }

  /** Adds one span (`root`: it has no parent) or content log record of trace `traceId`. */
  add(traceId: string, resource: Readonly<Record<string, unknown>>, item: Item): void {
    let group = this.#byTrace.get(traceId);
    if (group === undefined) {
      group = this.#groupOf(this.#router.destination(traceId, resource));
      this.#byTrace.set(traceId, group);
      group.traceIds.add(traceId);
    }
    push(group, item);
  }

  /** The lookups the request waits for (applications named by a resource, still being found). */
  get lookups(): Promise<void>[] {
    const waiting: Promise<void>[] = [];
    for (const group of this.#byKey.values())
      if (group.destination.kind === 'pending') waiting.push(group.destination.settled);
    return waiting;
  }

  /** Asks again where the groups still waiting for a lookup go, merging those that now agree. */
  resolveAgain(): void {
    for (const [key, group] of [...this.#byKey]) {
      if (group.destination.kind !== 'pending') continue;
      const destination = group.destination.again();
      if (destination.kind === 'pending') continue;
      this.#byKey.delete(key);
      const target = this.#groupOf(destination);
      for (const traceId of group.traceIds) target.traceIds.add(traceId);
      target.spans.push(...group.spans);
      target.roots.push(...group.roots);
      target.logs.push(...group.logs);
      target.items += group.items;
    }
  }

  /** Remembers the pipeline of each trace of an admitted group. */
  remember(group: RequestGroup, pipeline: TracePipeline): void {
    for (const traceId of group.traceIds) this.#router.remember(traceId, pipeline);
  }

  #groupOf(destination: Destination): RequestGroup {
    const key =
      destination.kind === 'pipeline'
        ? destination.pipeline
        : destination.kind === 'pending'
          ? destination.settled
          : `refused:${destination.reason}`;
    let group = this.#byKey.get(key);
    if (group === undefined) {
      group = { destination, spans: [], roots: [], logs: [], traceIds: new Set(), items: 0 };
      this.#byKey.set(key, group);
    }
    return group;
  }
}

function push(group: RequestGroup, item: Item): void {
  group.items += 1;
  if ('log' in item) group.logs.push(item.log);
  else if (item.root) group.roots.push(item.span);
  else group.spans.push(item.span);
}
