// The demo's report: what the service recorded, as plain-text tables.
import { heading, renderTable } from './table.mjs';

const passCell = (passed) => (passed ? { text: 'pass', tone: 'good' } : { text: 'FAIL', tone: 'bad' });

function tokensOf(trace) {
  const usage = trace.usage ?? {};
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

/** What the failed validators of a guardrail record did: blocked, masked, filtered. */
export function guardrailAction(record) {
  const actions = new Set(record.allComponents.filter((c) => !c.passed).map((c) => c.onFail));
  if (actions.has('fail')) return 'blocked';
  return [actions.has('mask') ? 'masked' : '', actions.has('filter') ? 'filtered' : '']
    .filter(Boolean)
    .join(', ');
}

function tracesTable(records, layout) {
  return renderTable({
    ...layout,
    columns: [
      { header: '#', align: 'right' },
      { header: 'session' },
      { header: 'status' },
      { header: 'ms', align: 'right' },
      { header: 'tokens', align: 'right' },
      { header: 'prompt', flex: true },
      { header: 'response', flex: true },
    ],
    rows: records.traces.map((trace, i) => [
      String(i + 1),
      trace.sessionId ?? '-',
      { text: trace.status, tone: trace.status === 'success' ? 'good' : 'bad' },
      String(Date.parse(trace.endTime) - Date.parse(trace.startTime)),
      String(tokensOf(trace)),
      trace.prompt,
      trace.response,
    ]),
  });
}

function scoresTable(records, metrics, layout) {
  return renderTable({
    ...layout,
    columns: [
      { header: '#', align: 'right' },
      { header: 'prompt', flex: true, minWidth: 10 },
      ...metrics.map((metric) => ({ header: metric.name })),
    ],
    rows: records.traces.map((trace, i) => [
      String(i + 1),
      trace.prompt,
      ...metrics.map((metric) => {
        const result = trace.evaluationResults.find((r) => r.metric === metric.name);
        if (result === undefined) return '-';
        const verdict = passCell(result.passed);
        return { text: `${result.score.toFixed(2)} ${verdict.text}`, tone: verdict.tone };
      }),
    ]),
  });
}

function guardrailsTable(records, layout) {
  const numberOf = new Map(records.traces.map((trace, i) => [trace.traceId, String(i + 1)]));
  return renderTable({
    ...layout,
    columns: [
      { header: '#', align: 'right' },
      { header: 'stage' },
      { header: 'result' },
      { header: 'failed validators' },
      { header: 'action' },
      { header: 'final content', flex: true },
    ],
    rows: records.guardrails.map((record) => {
      const action = guardrailAction(record);
      return [
        numberOf.get(record.traceId) ?? '?',
        record.guardrail_stage,
        passCell(record.passStatus === 'success'),
        record.categories.join(', ') || '-',
        action || '-',
        action === 'blocked' ? { text: '(blocked)', tone: 'bad' } : record.final_content,
      ];
    }),
  });
}

const WIDGET_TOTALS = {
  'trace-volume': (total) => `${total} traces`,
  latency: (total) => `${Math.round(total)} ms mean`,
  'error-rate': (total) => `${(total * 100).toFixed(1)} %`,
  'metric-scores': (total) => `${total.toFixed(2)} mean`,
  'guardrail-failures': (total) => `${total} failures`,
  'token-usage': (total) => `${total} tokens`,
};

function widgetsTable(records, layout) {
  return renderTable({
    ...layout,
    columns: [
      { header: 'widget' },
      { header: 'total', align: 'right' },
      { header: 'buckets', align: 'right' },
      { header: 'what it counts', flex: true },
    ],
    rows: records.widgets.map(({ widget, data }) => [
      widget.name,
      (WIDGET_TOTALS[widget.id] ?? String)(data.total),
      String(data.points.length),
      widget.description,
    ]),
  });
}

/**
 * The report as text: traces, metric scores, guardrail outcomes and widget data.
 *
 * @param {import('./collect.mjs').DemoRecords} records
 * @param {{ metrics: import('@aqm/client').EvalMetric[], maxWidth: number, color: boolean }} options
 * @returns {string}
 * @example
 * console.log(renderReport(records, { metrics, maxWidth: 120, color: false }));
 */
export function renderReport(records, { metrics, maxWidth, color }) {
  const layout = { maxWidth, color };
  return [
    heading(`Traces recorded by the service (${records.traces.length})`, color),
    tracesTable(records, layout),
    heading('Metric scores per trace (pass = score >= threshold)', color),
    scoresTable(records, metrics, layout),
    heading(`Guardrail outcomes (${records.guardrails.length} runs)`, color),
    guardrailsTable(records, layout),
    heading('Widget data for the run', color),
    widgetsTable(records, layout),
  ].join('\n');
}
