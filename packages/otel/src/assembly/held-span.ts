import { parseJsonLoose } from '../mapping/json.js';
import type { LlmLogRecord } from '../mapping/llm-log-record.js';
import { charBoundary, MASK_SLACK_CHARS, truncationMarker } from '../privacy/text-sanitizer.js';
import type { ReadableSpan, SpanAttributes, TimedEvent } from '../sdk-types.js';
import {
  ATTRIBUTE_BYTES,
  CONTAINER_BYTES,
  EVENT_BYTES,
  LOG_BYTES,
  linksBytes,
  resourceBytes,
  SLOT_BYTES,
  SPAN_BYTES,
  stringBytes,
} from './heap-cost.js';

/** Nesting followed into attribute values (api 1.10 maps, parsed JSON); deeper values are kept whole. */
const MAX_DEPTH = 8;

/** A span or log record as an open trace holds it, with an estimate of the heap it keeps (see heap-cost.ts). */
export interface Held<T> {
  item: T;
  bytes: number;
}

/**
 * Cuts long text values of what an open trace holds, and counts what is left: a span whose root
 * has not ended may wait for seconds, and the SDK's span object would keep a 2 MiB attribute alive
 * all that time. Values longer than `maxValueChars` (plus the slack masking needs) are cut where
 * the mapping would cut them anyway, ending in the mapping's own `…[truncated N chars]` marker so
 * the record still says how much was removed. A JSON document (a `gen_ai.input.messages` array) is
 * cut inside, value by value, so it stays JSON. Spans with nothing to cut are held as they are.
 */
export class ValueTrimmer {
  readonly #limit: number;
  /** The resource of the span counted last (a strong reference to one resource, no more). */
  #lastResource: unknown;

  /** @param maxValueChars - the pipeline's `maxValueChars`. */
  constructor(maxValueChars: number) {
    this.#limit = maxValueChars + MASK_SLACK_CHARS;
  }

  /**
   * The span to hold: the span itself, or a copy with its long values cut (and without its links,
   * which the mapping does not read). Counted in the same pass over its attributes as the cut.
   */
  span(span: ReadableSpan): Held<ReadableSpan> {
    const attributes = this.#attributes(span.attributes);
    let bytes = SPAN_BYTES + textBytes(span.name) + textBytes(span.status?.message) + attributes.bytes;
    if (span.resource !== this.#lastResource) {
      // Spans of one request (forwarder) or one provider (SDK) share theirs: counted once a run.
      this.#lastResource = span.resource;
      bytes += resourceBytes(span.resource);
    }
    const events = span.events;
    let held: TimedEvent[] | undefined;
    for (let index = 0; index < events.length; index += 1) {
      const event = events[index] as TimedEvent;
      const trimmed = this.#attributes(event.attributes);
      bytes += EVENT_BYTES + textBytes(event.name) + trimmed.bytes;
      if (trimmed.item === event.attributes) continue;
      held ??= [...events];
      held[index] = { name: event.name, time: event.time, attributes: trimmed.item } satisfies TimedEvent;
    }
    if (attributes.item === span.attributes && held === undefined) {
      return { item: span, bytes: bytes + linksBytes(span) };
    }
    return { item: copySpan(span, attributes.item ?? {}, held ?? events), bytes };
  }

  /** The log record to hold, its long values cut. */
  log(log: LlmLogRecord): Held<LlmLogRecord> {
    const body = this.#value(log.body, 0);
    const attributes = this.#attributes(log.attributes);
    const bytes = LOG_BYTES + body.bytes + attributes.bytes;
    if (body.item === log.body && attributes.item === log.attributes) return { item: log, bytes };
    return { item: { ...log, body: body.item, attributes: attributes.item ?? {} }, bytes };
  }

  #attributes<A extends SpanAttributes | Record<string, unknown> | undefined>(attributes: A): Held<A> {
    if (attributes === undefined || attributes === null) return { item: attributes, bytes: 0 };
    let bytes = 0;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(attributes)) {
      const value = (attributes as Record<string, unknown>)[key];
      const trimmed = this.#value(value, 0);
      bytes += ATTRIBUTE_BYTES + key.length + trimmed.bytes;
      if (trimmed.item !== value) {
        copy ??= { ...attributes };
        copy[key] = trimmed.item;
      }
    }
    return { item: (copy ?? attributes) as A, bytes };
  }

  #value(value: unknown, depth: number): Held<unknown> {
    if (typeof value === 'string') return this.#string(value, depth);
    if (typeof value !== 'object' || value === null) return { item: value, bytes: SLOT_BYTES };
    if (ArrayBuffer.isView(value)) return { item: value, bytes: CONTAINER_BYTES + value.byteLength };
    if (depth >= MAX_DEPTH) return { item: value, bytes: 4 * CONTAINER_BYTES };
    if (Array.isArray(value)) {
      let bytes = CONTAINER_BYTES;
      let copy: unknown[] | undefined;
      value.forEach((element: unknown, index) => {
        const trimmed = this.#value(element, depth + 1);
        bytes += SLOT_BYTES + trimmed.bytes;
        if (trimmed.item !== element) {
          copy ??= [...value];
          copy[index] = trimmed.item;
        }
      });
      return { item: copy ?? value, bytes };
    }
    let bytes = CONTAINER_BYTES;
    let copy: Record<string, unknown> | undefined;
    for (const [key, element] of Object.entries(value)) {
      const trimmed = this.#value(element, depth + 1);
      bytes += ATTRIBUTE_BYTES + key.length + trimmed.bytes;
      if (trimmed.item !== element) {
        copy ??= { ...value };
        copy[key] = trimmed.item;
      }
    }
    return { item: copy ?? value, bytes };
  }

  #string(value: string, depth: number): Held<unknown> {
    if (value.length <= this.#limit) return { item: value, bytes: stringBytes(value) };
    if (depth === 0) {
      // A JSON document is cut inside, so the mapping can still read its messages.
      const parsed = parseJsonLoose(value);
      if (typeof parsed === 'object' && parsed !== null) {
        const trimmed = this.#value(parsed, 1);
        // Long only as a whole (a long conversation): kept as it is, still JSON, and counted.
        if (trimmed.item === parsed) return { item: value, bytes: stringBytes(value) };
        try {
          const json = JSON.stringify(trimmed.item);
          return { item: json, bytes: stringBytes(json) };
        } catch {
          // Not representable again: cut as text below.
        }
      }
    }
    const kept = cut(value, this.#limit);
    return { item: kept, bytes: stringBytes(kept) };
  }
}

/** A name's or message's bytes; nothing when absent. */
function textBytes(value: unknown): number {
  return typeof value === 'string' ? stringBytes(value) : 0;
}

/**
 * The first `limit` characters and the mapping's marker, as a fresh string: a `slice` alone may
 * keep the whole original alive inside V8 (a sliced string points into its parent).
 */
function cut(value: string, limit: number): string {
  const end = charBoundary(value, limit);
  const kept = Buffer.from(value.slice(0, end), 'utf16le').toString('utf16le');
  return kept + truncationMarker(value.length - end);
}

/** A copy of the parts of a span the mapping reads, with other attributes and events (and, for a span still open, an end and status of its own). */
export function copySpan(
  span: ReadableSpan,
  attributes: SpanAttributes,
  events: readonly TimedEvent[],
  ending: Pick<ReadableSpan, 'endTime' | 'status'> = span,
): ReadableSpan {
  const context = span.spanContext();
  const copy: ReadableSpan & { parentSpanId?: unknown } = {
    name: span.name,
    kind: span.kind,
    spanContext: () => context,
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: ending.endTime,
    status: ending.status,
    attributes,
    events,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
  };
  // SDK 1.x spans name their parent this way.
  const legacy = (span as { parentSpanId?: unknown }).parentSpanId;
  if (legacy !== undefined) copy.parentSpanId = legacy;
  return copy;
}
