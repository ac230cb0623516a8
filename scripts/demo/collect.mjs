// Reads back, with @aqm/client, everything the service recorded for the demo application.

/** The widgets the demo shows, in order (those the service lists). */
export const DEMO_WIDGETS = ['trace-volume', 'latency', 'metric-scores', 'guardrail-failures', 'token-usage'];

/**
 * @typedef {object} DemoRecords
 * @property {import('@aqm/client').Trace[]} traces Oldest first, with their evaluation results.
 * @property {import('@aqm/client').GuardrailEvaluation[]} guardrails In trace order, input before output.
 * @property {Array<{ widget: import('@aqm/client').Widget, data: import('@aqm/client').WidgetDataItem }>} widgets
 */

/**
 * Everything the service recorded for the application between `start` and `end`.
 *
 * @param {import('@aqm/client').AqmClient} client
 * @param {string} applicationId
 * @param {{ start: Date, end: Date }} range
 * @returns {Promise<DemoRecords>}
 * @example
 * const records = await collectRecords(client, app.id, { start, end: new Date() });
 */
export async function collectRecords(client, applicationId, { start, end }) {
  const traces = [];
  for await (const summary of client.traces.iterate(applicationId, { start, end, limit: 100 })) {
    traces.push(await client.traces.get(applicationId, summary.traceId));
  }
  traces.reverse(); // the list is newest first; the report follows the conversation

  const order = new Map(traces.map((trace, index) => [trace.traceId, index]));
  const guardrails = [];
  for await (const summary of client.guardrails.evaluations.iterate(applicationId, {
    start,
    end,
    limit: 100,
  })) {
    guardrails.push(await client.guardrails.evaluations.get(applicationId, summary.id));
  }
  guardrails.sort(
    (a, b) =>
      (order.get(a.traceId) ?? -1) - (order.get(b.traceId) ?? -1) ||
      a.guardrail_stage.localeCompare(b.guardrail_stage), // 'input' < 'output'
  );

  const known = await client.widgets.list();
  const shown = DEMO_WIDGETS.map((id) => known.find((widget) => widget.id === id)).filter(Boolean);
  const data = await client.widgets.data(applicationId, { types: shown.map((w) => w.id), start, end });
  return { traces, guardrails, widgets: shown.map((widget, i) => ({ widget, data: data[i] })) };
}
