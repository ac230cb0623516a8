// The demo's report: what the service recorded, as plain-text tables.
import { heading, oneLine, renderTable, truncate } from './table.mjs';

const passCell = (passed) => (passed ? { text: 'pass', tone: 'good' } : { text: 'FAIL', tone: 'bad' });

function tokensOf(trace) {
  const usage = trace.usage ?? {};
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

/**
 * What the failed validators' actions would have done to the content: `would block`, `would mask`,
 * `would filter`. Would: the service runs guardrails on traces after the model call and only
 * records the outcome; nothing in the app was blocked or changed.
 */
export function guardrailAction(record) {
  const actions = new Set(record.allComponents.filter((c) => !c.passed).map((c) => c.onFail));
  if (actions.has('fail')) return 'would block';
  const verbs = [actions.has('mask') ? 'mask' : '', actions.has('filter') ? 'filter' : ''].filter(Boolean);
  return verbs.length === 0 ? '' : `would ${verbs.join(', ')}`;
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
      { header: 'content if enforced', flex: true },
    ],
    rows: records.guardrails.map((record) => {
      const action = guardrailAction(record);
      return [
        numberOf.get(record.traceId) ?? '?',
        record.guardrail_stage,
        passCell(record.passStatus === 'success'),
        record.categories.join(', ') || '-',
        action || '-',
        action === 'would block' ? { text: '(would be blocked)', tone: 'bad' } : record.final_content,
      ];
    }),
  });
}

/**
 * What the guardrail table does not say by itself: the outcomes were recorded after the fact, and
 * the app answered anyway, with the traces the service would have blocked named.
 */
function guardrailNote(records, maxWidth) {
  const lines = [
    'Recorded after the fact: the service ran these guardrails on the submitted traces, after the model',
    'had answered. "would ..." is what each action would have done; the app sent and answered as usual.',
  ];
  records.traces.forEach((trace, i) => {
    const blocked = records.guardrails.filter(
      (r) => r.traceId === trace.traceId && guardrailAction(r) === 'would block',
    );
    if (blocked.length === 0) return;
    const stages = blocked.map((r) => r.guardrail_stage).join(' and ');
    const who = trace.sessionId === undefined ? '' : ` (${trace.sessionId})`;
    lines.push(
      `Trace ${i + 1}${who}: its ${stages} would have been blocked, yet the assistant answered: ${oneLine(trace.response)}`,
    );
  });
  return lines.map((line) => truncate(line, maxWidth)).join('\n');
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
    `\n${guardrailNote(records, maxWidth)}`,
    heading('Widget data for the run', color),
    widgetsTable(records, layout),
  ].join('\n');
}
