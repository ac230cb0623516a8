import type { WidgetDataItem } from '@aqm/wire';
import type { ScoreBucket } from '../store/evaluation-results-repository.js';
import type { GuardrailBucket } from '../store/guardrail-records-repository.js';
import type { Store } from '../store/store.js';
import type { TraceBucket } from '../store/traces-repository.js';
import type { WidgetId } from './catalog.js';

/** Ranges up to this long are bucketed by hour, longer ones by day. */
export const HOURLY_RANGE_LIMIT_MS = 48 * 60 * 60 * 1000;

/** Bucket size of a range, and how many leading characters of an ISO time name its bucket. */
export function bucketingOf(start: string, end: string): { unit: 'hour' | 'day'; chars: number } {
  return Date.parse(end) - Date.parse(start) <= HOURLY_RANGE_LIMIT_MS
    ? { unit: 'hour', chars: 13 }
    : { unit: 'day', chars: 10 };
}

/** The start of a bucket as an ISO time: `2026-01-31T12` → `2026-01-31T12:00:00.000Z`, `2026-01-31` → midnight. */
export function bucketTimestamp(bucket: string): string {
  return bucket.length === 10 ? `${bucket}T00:00:00.000Z` : `${bucket}:00:00.000Z`;
}

/** The per-bucket figures the widgets are computed from (all over the same range and bucketing). */
export interface WidgetSources {
  traces(): TraceBucket[];
  scores(): ScoreBucket[];
  guardrails(): GuardrailBucket[];
}

/**
 * One widget data item. Points are only the buckets that have data (no zero-filled gaps), in
 * time order; `total` is a count, a sum or a mean over the whole range as the widget says.
 */
export function widgetItem(type: WidgetId, sources: WidgetSources): WidgetDataItem {
  switch (type) {
    case 'trace-volume': {
      const rows = sources.traces();
      return item(
        type,
        rows,
        (r) => r.traces,
        sum(rows, (r) => r.traces),
      );
    }
    case 'latency': {
      const rows = sources.traces();
      return item(
        type,
        rows,
        (r) => r.durationMsSum / r.traces,
        ratio(
          rows,
          (r) => r.durationMsSum,
          (r) => r.traces,
        ),
      );
    }
    case 'error-rate': {
      const rows = sources.traces();
      return item(
        type,
        rows,
        (r) => r.errors / r.traces,
        ratio(
          rows,
          (r) => r.errors,
          (r) => r.traces,
        ),
      );
    }
    case 'metric-scores': {
      const rows = sources.scores().filter((r) => r.scores > 0);
      return item(
        type,
        rows,
        (r) => r.scoreSum / r.scores,
        ratio(
          rows,
          (r) => r.scoreSum,
          (r) => r.scores,
        ),
      );
    }
    case 'guardrail-failures': {
      const rows = sources.guardrails();
      return item(
        type,
        rows,
        (r) => r.failures,
        sum(rows, (r) => r.failures),
      );
    }
    case 'token-usage': {
      const rows = sources.traces().filter((r) => r.tokenTraces > 0);
      return item(
        type,
        rows,
        (r) => r.tokens,
        sum(rows, (r) => r.tokens),
      );
    }
  }
}

/**
 * Widget data for `types`, one item per type in the same order, over the inclusive range.
 * Each source is read from the store at most once however many widgets use it.
 */
export function computeWidgetData(
  store: Store,
  applicationId: string,
  types: readonly WidgetId[],
  start: string,
  end: string,
): WidgetDataItem[] {
  const { chars } = bucketingOf(start, end);
  const sources: WidgetSources = {
    traces: once(() => store.traces.buckets(applicationId, start, end, chars)),
    scores: once(() => store.evaluationResults.buckets(applicationId, start, end, chars)),
    guardrails: once(() => store.guardrailRecords.buckets(applicationId, start, end, chars)),
  };
  return types.map((type) => widgetItem(type, sources));
}

function item<R extends { bucket: string }>(
  type: WidgetId,
  rows: readonly R[],
  value: (row: R) => number,
  total: number,
): WidgetDataItem {
  return {
    type,
    points: rows.map((row) => ({ timestamp: bucketTimestamp(row.bucket), value: value(row) })),
    total,
  };
}

function sum<R>(rows: readonly R[], value: (row: R) => number): number {
  return rows.reduce((acc, row) => acc + value(row), 0);
}

function ratio<R>(
  rows: readonly R[],
  numerator: (row: R) => number,
  denominator: (row: R) => number,
): number {
  const d = sum(rows, denominator);
  return d === 0 ? 0 : sum(rows, numerator) / d;
}

function once<T>(read: () => T): () => T {
  let value: { v: T } | undefined;
  return () => {
    value ??= { v: read() };
    return value.v;
  };
}
