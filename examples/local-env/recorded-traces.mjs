import { printableLine, visibleControls } from '@aqm/wire';

/**
 * Text on one line: runs of white space (line breaks too) become one space.
 *
 * @param {string} text
 * @returns {string}
 * @example
 * oneLine('a\n  b'); // 'a b'
 */
export function oneLine(text) {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The traces the service holds for the application, read back with `@aqm/client` (the list,
 * then each trace in full for its scores), oldest first: all of them, or those started at or
 * after `since`.
 *
 * @param {import('@aqm/client').AqmClient} client
 * @param {string} applicationId
 * @param {{ since?: Date }} [options]
 * @returns {Promise<import('@aqm/client').Trace[]>}
 * @example
 * const traces = await readRecordedTraces(env.client, env.aqm.applicationId, { since: env.startedAt });
 */
export async function readRecordedTraces(client, applicationId, { since } = {}) {
  const query = since === undefined ? { limit: 100 } : { limit: 100, start: since.toISOString() };
  const traces = [];
  for await (const summary of client.traces.iterate(applicationId, query)) {
    traces.push(await client.traces.get(applicationId, summary.traceId));
  }
  // The list is newest first; a run reads better in the order it happened.
  return traces.reverse();
}

/**
 * A trace as a few lines of text: its id, status, duration, spans, model, tokens and session,
 * then the prompt, the response and the metric scores the service gave it.
 *
 * @param {import('@aqm/client').Trace} trace
 * @returns {string}
 * @example
 * console.log(formatTrace(await env.client.traces.get(appId, traceId)));
 */
export function formatTrace(trace) {
  const durationMs = Date.parse(trace.endTime) - Date.parse(trace.startTime);
  const tokens =
    trace.usage?.totalTokens ?? (trace.usage?.inputTokens ?? 0) + (trace.usage?.outputTokens ?? 0);
  const facts = [
    trace.status,
    `${durationMs} ms`,
    `${trace.spanCount} span${trace.spanCount === 1 ? '' : 's'}`,
    trace.model,
    tokens > 0 ? `${tokens} tokens` : undefined,
    trace.sessionId === undefined ? undefined : `session ${trace.sessionId}`,
  ].filter((fact) => fact !== undefined);
  const scores = (trace.evaluationResults ?? [])
    .map((result) => `${result.metric} ${result.score} ${result.passed ? 'pass' : 'FAIL'}`)
    .join(', ');
  // The prompt, the response, the model and the session come from the app's end users and its
  // model: a control character in them is shown as \uXXXX instead of steering the terminal.
  return [
    `trace ${trace.traceId}  ${printableLine(facts.join('  '))}`,
    `  prompt:   ${visibleControls(oneLine(trace.prompt))}`,
    `  response: ${visibleControls(oneLine(trace.response))}`,
    `  scores:   ${scores === '' ? '(no metrics configured)' : scores}`,
  ].join('\n');
}

/**
 * Reads back what the service recorded for the example's application during this run (traces
 * started since `env.startedAt`; an application given by `AQM_APPLICATION_ID` may hold earlier
 * ones) and prints it. Fails when fewer traces arrived than the example produced, so a broken
 * pipeline cannot look like success, on a second run against the same application too.
 *
 * @param {import('./environment.mjs').LocalEnvironment} env
 * @param {{ expectedTraces: number }} options How many traces the example produced.
 * @returns {Promise<import('@aqm/client').Trace[]>}
 * @example
 * await printRecordedTraces(env, { expectedTraces: 3 });
 */
export async function printRecordedTraces(env, { expectedTraces }) {
  if (!Number.isInteger(expectedTraces) || expectedTraces < 1) {
    throw new RangeError(
      `Expected \`expectedTraces\` to be a positive integer, got ${JSON.stringify(expectedTraces)}`,
    );
  }
  const traces = await readRecordedTraces(env.client, env.aqm.applicationId, { since: env.startedAt });
  console.log(
    `\nThe service recorded ${traces.length} trace${traces.length === 1 ? '' : 's'} for application ${env.aqm.applicationId}:\n`,
  );
  for (const trace of traces) console.log(`${formatTrace(trace)}\n`);
  if (traces.length < expectedTraces) {
    throw new Error(
      `expected at least ${expectedTraces} recorded traces, the service has ${traces.length}: ` +
        'check that the tracing setup ran before the model was called',
    );
  }
  return traces;
}
