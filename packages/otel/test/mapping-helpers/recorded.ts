import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attributes, HrTime, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** Recordings of real instrumentations (see test/fixtures/recorded-spans.mjs; `pnpm fixtures:record`). */
export const RECORDED_DIR = join(import.meta.dirname, '..', 'recorded');

/** One span as recorded. */
export interface RecordedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: SpanKind;
  startTime: HrTime;
  endTime: HrTime;
  status: SpanStatus;
  attributes: Attributes;
  events: Array<{ name: string; time: HrTime; attributes: Attributes }>;
  scope: { name: string; version?: string };
  resource: Attributes;
}

/** One scenario: what the app asked and got, whether the call failed, and its trace's spans. */
export interface RecordedScenario {
  name: string;
  question: string;
  answer: string;
  failed: boolean;
  model?: string;
  spans: RecordedSpan[];
}

/** A recording file. */
export interface Recording {
  source: string;
  packages: Record<string, string>;
  scenarios: RecordedScenario[];
}

/** Every recording, by file name. */
export function loadRecordings(): Recording[] {
  return readdirSync(RECORDED_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(join(RECORDED_DIR, file), 'utf8')) as Recording);
}

function durationOf(start: HrTime, end: HrTime): HrTime {
  let seconds = end[0] - start[0];
  let nanos = end[1] - start[1];
  if (nanos < 0) {
    seconds -= 1;
    nanos += 1_000_000_000;
  }
  return [seconds, nanos];
}

/** A recorded span as the ReadableSpan an exporter gets (SDK 2.x shape). */
export function toReadableSpan(span: RecordedSpan): ReadableSpan {
  const context: SpanContext = { traceId: span.traceId, spanId: span.spanId, traceFlags: 1 };
  const parent: SpanContext | undefined =
    span.parentSpanId === undefined
      ? undefined
      : { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: 1 };
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => context,
    parentSpanContext: parent,
    startTime: span.startTime,
    endTime: span.endTime,
    duration: durationOf(span.startTime, span.endTime),
    status: span.status,
    attributes: span.attributes,
    links: [],
    events: span.events,
    ended: true,
    resource: { attributes: span.resource } as unknown as ReadableSpan['resource'],
    instrumentationScope: span.scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** A scenario's spans in end order, as an exporter gets them. */
export function scenarioSpans(scenario: RecordedScenario): ReadableSpan[] {
  return scenario.spans
    .map(toReadableSpan)
    .sort((a, b) => a.endTime[0] - b.endTime[0] || a.endTime[1] - b.endTime[1]);
}
