import {
  AQM_METADATA_PREFIX,
  AQM_SESSION_ID,
  AQM_TAGS,
  AQM_USER_ID,
  MAX_LABEL_CHARS,
  MAX_TAGS,
} from '../trace-attributes/names.js';
import type { MetadataValue } from './conventions/types.js';
import type { SpanView } from './span-view.js';
import type { TraceStructure } from './trace-structure.js';

/**
 * The spans of a trace in the order their `aqm.*` values count: the first model call, then its
 * ancestors up to the root (the nearest enclosing value wins: an inner `withAqmAttributes` or
 * `withLlmSpan`'s own options over an outer scope's), then every other span, top-level first.
 */
export function nearestFirst(trace: TraceStructure): SpanView[] {
  const byId = new Map<string, SpanView>();
  for (const view of trace.views) byId.set(view.spanId, view);
  const order: SpanView[] = [];
  const placed = new Set<SpanView>();
  let current: SpanView | undefined = trace.modelCalls[0] ?? trace.top;
  while (current !== undefined && !placed.has(current)) {
    order.push(current);
    placed.add(current);
    current = current.parentSpanId === undefined ? undefined : byId.get(current.parentSpanId);
  }
  for (const view of trace.topFirst) if (!placed.has(view)) order.push(view);
  return order;
}

/** What a trace's spans say through the `aqm.*` attributes (see `trace-attributes/names.ts`). */
export interface AqmTraceValues {
  userId: string | undefined;
  sessionId: string | undefined;
  metadata: Array<[string, MetadataValue]>;
  tags: string[] | undefined;
}

/** The trace's `aqm.*` values, each read in {@link nearestFirst} order. */
export function aqmTraceValues(trace: TraceStructure): AqmTraceValues {
  const order = nearestFirst(trace);
  return {
    userId: firstString(order, AQM_USER_ID),
    sessionId: firstString(order, AQM_SESSION_ID),
    metadata: aqmMetadata(order),
    tags: aqmTags(order),
  };
}

function firstString(order: readonly SpanView[], key: string): string | undefined {
  for (const view of order) {
    const value = view.str(key);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * `aqm.metadata.<key>` entries under their bare key, in {@link nearestFirst} order, the first value
 * of a key winning. Arrays (an attribute may hold one) become JSON text.
 */
function aqmMetadata(order: readonly SpanView[]): Array<[string, MetadataValue]> {
  const out = new Map<string, MetadataValue>();
  for (const view of order) {
    for (const attribute of view.keys.withPrefix(AQM_METADATA_PREFIX)) {
      const key = attribute.slice(AQM_METADATA_PREFIX.length);
      if (key === '' || out.has(key)) continue;
      const value: unknown = view.attributes[attribute];
      if (typeof value === 'string' || typeof value === 'boolean') out.set(key, value);
      else if (typeof value === 'number' && Number.isFinite(value)) out.set(key, value);
      else if (Array.isArray(value)) out.set(key, JSON.stringify(value));
    }
  }
  return [...out];
}

/** Every span's `aqm.tags` (a string array, or one string), merged without repeats, at most 64. */
function aqmTags(order: readonly SpanView[]): string[] | undefined {
  const tags: string[] = [];
  for (const view of order) {
    const value: unknown = view.attributes[AQM_TAGS];
    const items: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item !== 'string' || item === '') continue;
      const tag = item.length > MAX_LABEL_CHARS ? item.slice(0, MAX_LABEL_CHARS) : item;
      if (tags.includes(tag)) continue;
      if (tags.length >= MAX_TAGS) return tags;
      tags.push(tag);
    }
  }
  return tags.length > 0 ? tags : undefined;
}
