import type { ReadableSpan, SpanAttributes, TimedEvent } from '@aqm/otel/pipeline';
import type { HrTime, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api';
import { idHex, keyValues, nanosToHrTime, smallInt, str } from './otlp-values.js';

type Fields = Record<string, unknown>;

/** The resource and scope shared by the spans of one `ScopeSpans`. */
export interface SpanOrigin {
  readonly resource: { readonly attributes: SpanAttributes };
  readonly instrumentationScope: { readonly name: string; readonly version?: string | undefined };
}

// OTLP numbers kinds from SPAN_KIND_UNSPECIFIED = 0; the OpenTelemetry API from INTERNAL = 0.
const KIND_NAMES: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};
const STATUS_NAMES: Record<string, number> = {
  STATUS_CODE_UNSET: 0,
  STATUS_CODE_OK: 1,
  STATUS_CODE_ERROR: 2,
};
const SAMPLED = 1;

function enumValue(value: unknown, names: Record<string, number>): number {
  return typeof value === 'string' && Object.hasOwn(names, value)
    ? (names[value] as number)
    : smallInt(value);
}

/**
 * A span decoded from OTLP, shaped as the finished spans the SDKs hand to processors (what the
 * `@aqm/otel` assembler and mapping read). Its parent is never marked remote: the forwarder sees
 * the spans of every process, so only a span without a parent is the root of its trace.
 */
export class ForwardedSpan implements ReadableSpan {
  readonly name: string;
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly status: SpanStatus;
  readonly attributes: SpanAttributes;
  readonly events: readonly TimedEvent[];
  readonly resource: SpanOrigin['resource'];
  readonly instrumentationScope: SpanOrigin['instrumentationScope'];
  readonly #context: SpanContext;

  constructor(
    traceId: string,
    spanId: string,
    parentSpanId: string | undefined,
    span: Fields,
    origin: SpanOrigin,
  ) {
    this.#context = { traceId, spanId, traceFlags: SAMPLED, isRemote: false };
    this.parentSpanContext =
      parentSpanId === undefined
        ? undefined
        : { traceId, spanId: parentSpanId, traceFlags: SAMPLED, isRemote: false };
    this.name = str(span.name);
    this.kind = Math.max(0, enumValue(span.kind, KIND_NAMES) - 1) as SpanKind;
    this.startTime = nanosToHrTime(span.startTimeUnixNano);
    this.endTime = nanosToHrTime(span.endTimeUnixNano);
    const status = (span.status ?? {}) as Fields;
    const message = str(status.message);
    this.status = {
      code: enumValue(status.code, STATUS_NAMES),
      ...(message === '' ? {} : { message }),
    } as SpanStatus;
    this.attributes = keyValues(span.attributes);
    this.events = Array.isArray(span.events) ? span.events.map(toEvent) : [];
    this.resource = origin.resource;
    this.instrumentationScope = origin.instrumentationScope;
  }

  spanContext(): SpanContext {
    return this.#context;
  }
}

function toEvent(event: unknown): TimedEvent {
  const fields = (typeof event === 'object' && event !== null ? event : {}) as Fields;
  return {
    name: str(fields.name),
    time: nanosToHrTime(fields.timeUnixNano),
    attributes: keyValues(fields.attributes),
  };
}

/**
 * The span of an OTLP `Span`, or `undefined` when its trace or span id is missing or malformed (the
 * request's `partial_success` counts it).
 *
 * @example
 * const span = toForwardedSpan(otlpSpan, origin);
 */
export function toForwardedSpan(span: unknown, origin: SpanOrigin): ForwardedSpan | undefined {
  if (typeof span !== 'object' || span === null) return undefined;
  const fields = span as Fields;
  const traceId = idHex(fields.traceId, 16);
  const spanId = idHex(fields.spanId, 8);
  if (traceId === undefined || spanId === undefined) return undefined;
  return new ForwardedSpan(traceId, spanId, idHex(fields.parentSpanId, 8), fields, origin);
}

/** The resource and scope of a `ResourceSpans`/`ScopeSpans` pair. */
export function spanOrigin(resourceAttributes: SpanAttributes, scope: unknown): SpanOrigin {
  const fields = (typeof scope === 'object' && scope !== null ? scope : {}) as Fields;
  const version = str(fields.version);
  return {
    resource: { attributes: resourceAttributes },
    instrumentationScope: { name: str(fields.name), ...(version === '' ? {} : { version }) },
  };
}
