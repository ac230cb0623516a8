import type { Span, SpanEvent, SpanKindName } from '@aqm/wire';
import type { Attributes } from '@opentelemetry/api';
import type { TextSanitizer } from '../privacy/text-sanitizer.js';
import { attempt } from './attempt.js';
import { isoOf } from './iso-time.js';
import { hrTimeToMs, type SpanView } from './span-view.js';

/** `SpanKind` enum values (INTERNAL=0 … CONSUMER=4) → wire names. */
const KIND_NAMES: readonly SpanKindName[] = ['internal', 'server', 'client', 'producer', 'consumer'];
/** `SpanStatusCode` values (UNSET=0, OK=1, ERROR=2) → wire codes. */
const STATUS_CODES = ['unset', 'ok', 'error'] as const;

/** Attributes with every string (also inside arrays) masked and truncated. */
function cleanAttributes(
  attributes: Attributes,
  fieldPrefix: string,
  sanitizer: TextSanitizer,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(attributes)) {
    const value = attributes[key];
    if (value === undefined) continue;
    const field = fieldPrefix + key;
    if (typeof value === 'string') out[key] = sanitizer.clean(value, field);
    else if (Array.isArray(value)) {
      out[key] = value.map((item: unknown) =>
        typeof item === 'string' ? sanitizer.clean(item, field) : item,
      );
    } else out[key] = value;
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
    attributes: cleanAttributes(view.attributes, 'span.attributes.', sanitizer),
  };
  if (view.parentSpanId !== undefined) wire.parentSpanId = view.parentSpanId;
  const statusMessage = span.status?.message;
  if (typeof statusMessage === 'string' && statusMessage !== '') {
    wire.status.message = sanitizer.clean(statusMessage, 'span.status');
  }
  const events: SpanEvent[] = [];
  for (const event of span.events ?? []) {
    const converted = attempt((): SpanEvent => {
      const out: SpanEvent = {
        name: sanitizer.truncate(event.name),
        time: isoOf(hrTimeToMs(event.time) ?? view.startMs, nowMs),
      };
      if (event.attributes !== undefined) {
        out.attributes = cleanAttributes(event.attributes, `span.events.${event.name}.`, sanitizer);
      }
      return out;
    }, undefined);
    if (converted !== undefined) events.push(converted);
  }
  if (events.length > 0) wire.events = events;
  return wire;
}
