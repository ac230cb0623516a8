import type { Span, SpanEvent, SpanKindName } from '@aqm/wire';
import type { TextSanitizer } from '../privacy/text-sanitizer.js';
import type { SpanAttributes, TimedEvent } from '../sdk-types.js';
import { isoOf } from './iso-time.js';
import { hrTimeToMs, type SpanView } from './span-view.js';

/** `SpanKind` enum values (INTERNAL=0 … CONSUMER=4) → wire names. */
const KIND_NAMES: readonly SpanKindName[] = ['internal', 'server', 'client', 'producer', 'consumer'];
/** `SpanStatusCode` values (UNSET=0, OK=1, ERROR=2) → wire codes. */
const STATUS_CODES = ['unset', 'ok', 'error'] as const;

/** Nesting kept in an attribute value (api 1.10 allows maps and nested arrays); deeper is elided. */
const MAX_VALUE_DEPTH = 8;

/** A value with every string in it masked and truncated, at any depth, and map keys repaired. */
function cleanValue(value: unknown, field: string, sanitizer: TextSanitizer, depth: number): unknown {
  if (typeof value === 'string') return sanitizer.clean(value, field);
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' ? undefined : value;
  }
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
  // The depth bound also ends a cycle.
  if (depth >= MAX_VALUE_DEPTH) return Array.isArray(value) ? '[Array]' : '[Object]';
  if (Array.isArray(value))
    return value.map((item: unknown) => cleanValue(item, field, sanitizer, depth + 1));
  return cleanAttributes(value as SpanAttributes, field, sanitizer, depth + 1);
}

/**
 * Attributes with every string (also inside arrays and maps) masked and truncated, and keys
 * repaired. `keys` are those of `attributes`, when the caller already has them listed.
 */
function cleanAttributes(
  attributes: SpanAttributes,
  fieldPrefix: string,
  sanitizer: TextSanitizer,
  depth = 0,
  keys: readonly string[] = Object.keys(attributes),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = attributes[key];
    if (value === undefined) continue;
    // Keys are text that travels too: a lone surrogate or NUL in one is repaired like a value.
    const name = sanitizer.truncate(key);
    // Top-level attributes are fields of their own; inside a map, the attribute's field applies.
    const field = depth === 0 ? fieldPrefix + key : fieldPrefix;
    out[name] =
      typeof value === 'string' ? sanitizer.clean(value, field) : cleanValue(value, field, sanitizer, depth);
  }
  return out;
}

/**
 * A span as the wire carries it: ids from its span context, kind and status as names, ISO times,
 * attributes and event attributes with every string value masked and truncated.
 */
export function toWireSpan(view: SpanView, sanitizer: TextSanitizer, nowMs: number): Span {
  const span = view.span;
  const wire: Span = {
    spanId: view.spanId,
    name: sanitizer.truncate(typeof span.name === 'string' ? span.name : ''),
    kind: KIND_NAMES[span.kind] ?? 'internal',
    startTime: isoOf(view.startMs, nowMs),
    endTime: isoOf(view.endMs, nowMs),
    status: { code: STATUS_CODES[span.status?.code ?? 0] ?? 'unset' },
    attributes: cleanAttributes(view.attributes, 'span.attributes.', sanitizer, 0, view.keys.all),
  };
  if (view.parentSpanId !== undefined) wire.parentSpanId = view.parentSpanId;
  const statusMessage = span.status?.message;
  if (typeof statusMessage === 'string' && statusMessage !== '') {
    wire.status.message = sanitizer.clean(statusMessage, 'span.status');
  }
  const events: SpanEvent[] = [];
  for (const event of span.events ?? []) {
    const converted = toWireEvent(event, view, sanitizer, nowMs);
    if (converted !== undefined) events.push(converted);
  }
  if (events.length > 0) wire.events = events;
  return wire;
}

/** One span event as the wire carries it, or `undefined` when it cannot be read (the span keeps the rest). */
function toWireEvent(
  event: TimedEvent,
  view: SpanView,
  sanitizer: TextSanitizer,
  nowMs: number,
): SpanEvent | undefined {
  try {
    const out: SpanEvent = {
      name: sanitizer.truncate(event.name),
      time: isoOf(hrTimeToMs(event.time) ?? view.startMs, nowMs),
    };
    if (event.attributes !== undefined) {
      out.attributes = cleanAttributes(event.attributes, `span.events.${event.name}.`, sanitizer);
    }
    return out;
  } catch {
    return undefined;
  }
}
