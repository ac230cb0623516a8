import { randomBytes } from 'node:crypto';
import type { Attributes, AttributeValue, HrTime } from '@opentelemetry/api';
import type {
  RecordedScenario,
  RecordedSpan,
} from '../../../../packages/otel/test/mapping-helpers/recorded.js';

// A recorded scenario (packages/otel/test/recorded/*.json) as the OTLP/JSON request an app's
// exporter would have sent: the spans grouped by resource and scope, ids as hex, times as unix
// nanoseconds in decimal strings, attributes as AnyValue, events and status.

type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: number | string }
  | { doubleValue: number }
  | { arrayValue: { values: AnyValue[] } };

/** An attribute value as OTLP/JSON's AnyValue (whole numbers as `intValue`, as the JS exporter sends them). */
export function anyValueOf(value: AttributeValue | bigint): AnyValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'bigint') return { intValue: value.toString() };
  if (typeof value === 'number')
    return Number.isInteger(value) ? { intValue: value } : { doubleValue: value };
  return { arrayValue: { values: (value ?? []).map((item) => anyValueOf(item ?? '')) } };
}

/** Attributes as a list of OTLP KeyValue. */
export function keyValuesOf(attributes: Attributes): Array<{ key: string; value: AnyValue }> {
  return Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ({ key, value: anyValueOf(value as AttributeValue) }));
}

function nanos([seconds, ns]: HrTime): string {
  return (BigInt(seconds) * 1_000_000_000n + BigInt(ns)).toString();
}

function otlpSpan(span: RecordedSpan, traceId: string): Record<string, unknown> {
  return {
    traceId,
    spanId: span.spanId,
    ...(span.parentSpanId === undefined ? {} : { parentSpanId: span.parentSpanId }),
    name: span.name,
    // OTLP counts kinds from UNSPECIFIED = 0, the API from INTERNAL = 0.
    kind: span.kind + 1,
    startTimeUnixNano: nanos(span.startTime),
    endTimeUnixNano: nanos(span.endTime),
    attributes: keyValuesOf(span.attributes),
    events: span.events.map((event) => ({
      timeUnixNano: nanos(event.time),
      name: event.name,
      attributes: keyValuesOf(event.attributes),
    })),
    status: { code: span.status.code, ...(span.status.message ? { message: span.status.message } : {}) },
  };
}

/**
 * The scenario's spans as one OTLP/JSON `ExportTraceServiceRequest`, under a fresh trace id (the
 * recordings number their traces from 1, so two recordings share ids). Returns the body and that id.
 */
export function scenarioRequest(scenario: RecordedScenario): { traceId: string; body: Buffer } {
  const traceId = randomBytes(16).toString('hex');
  const resources = new Map<string, { resource: Attributes; scopes: Map<string, RecordedSpan[]> }>();
  for (const span of scenario.spans) {
    const resourceKey = JSON.stringify(span.resource);
    let group = resources.get(resourceKey);
    if (group === undefined) {
      group = { resource: span.resource, scopes: new Map() };
      resources.set(resourceKey, group);
    }
    const scopeKey = JSON.stringify(span.scope);
    group.scopes.set(scopeKey, [...(group.scopes.get(scopeKey) ?? []), span]);
  }
  const request = {
    resourceSpans: [...resources.values()].map(({ resource, scopes }) => ({
      resource: { attributes: keyValuesOf(resource) },
      scopeSpans: [...scopes.values()].map((spans) => ({
        scope: {
          name: spans[0]!.scope.name,
          ...(spans[0]!.scope.version ? { version: spans[0]!.scope.version } : {}),
        },
        spans: spans.map((span) => otlpSpan(span, traceId)),
      })),
    })),
  };
  return { traceId, body: Buffer.from(JSON.stringify(request)) };
}
