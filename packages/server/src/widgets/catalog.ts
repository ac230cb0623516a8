import type { Widget } from '@aqm/wire';

/**
 * The widget types of `GET /widgets`. Each answers `{ type, points, total }` in widget data;
 * the description says what a point's `value` and the `total` are.
 */
export const widgetCatalog = [
  {
    id: 'trace-volume',
    name: 'Trace volume',
    description: 'Number of traces by startTime. total: number of traces in the range.',
  },
  {
    id: 'latency',
    name: 'Latency',
    description: 'Mean trace duration (endTime - startTime) in milliseconds. total: mean over the range.',
  },
  {
    id: 'error-rate',
    name: 'Error rate',
    description: 'Share (0..1) of traces with status error. total: share over the range.',
  },
  {
    id: 'metric-scores',
    name: 'Metric scores',
    description:
      'Mean evaluation score (0..1, all metrics) of the traces started in the bucket. total: mean over the range.',
  },
  {
    id: 'guardrail-failures',
    name: 'Guardrail failures',
    description: 'Guardrail runs with passStatus error, by created_at. total: failures in the range.',
  },
  {
    id: 'token-usage',
    name: 'Token usage',
    description:
      'Tokens used (usage.totalTokens, else inputTokens + outputTokens) by trace startTime. total: sum.',
  },
] as const satisfies readonly Widget[];

/** The id of a widget type. */
export type WidgetId = (typeof widgetCatalog)[number]['id'];

const IDS: ReadonlySet<string> = new Set(widgetCatalog.map((w) => w.id));

/** Whether `id` names a widget type of the catalog. */
export function isWidgetId(id: string): id is WidgetId {
  return IDS.has(id);
}
