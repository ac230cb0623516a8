// An app that already had OpenTelemetry with its own exporter adds AqmSpanProcessor to its
// provider; both then receive the spans. Against the local service and the fake model unless
// AQM_BASE_URL (and OPENAI_BASE_URL) are set.
import {
  describeEnvironment,
  printRecordedTraces,
  runExample,
  startLocalEnvironment,
} from 'example-local-env';
import { createQuestionHandler } from './app.mjs';
import { setUpTracing } from './tracing.mjs';

const QUESTIONS = [
  'When does the science museum open on Sundays?',
  'Is there a student discount for tickets?',
];

await runExample('existing-otel-setup', async () => {
  const env = await startLocalEnvironment({ name: 'example-existing-otel-setup' });
  try {
    console.log(describeEnvironment(env));
    const { provider, ownExporter } = setUpTracing(env.aqm);

    const answerQuestion = createQuestionHandler(env.llm);
    for (const question of QUESTIONS) {
      console.log(`user: ${question}\nassistant: ${await answerQuestion(question)}`);
    }
    await provider.forceFlush(); // both pipelines: the own exporter and AQM

    const ownSpans = ownExporter.getFinishedSpans();
    const ownTraceIds = new Set(ownSpans.map((span) => span.spanContext().traceId));
    console.log(`\nThe app's own exporter received ${ownSpans.length} spans in ${ownTraceIds.size} traces:`);
    for (const span of ownSpans) console.log(`  ${span.spanContext().traceId}  ${span.name}`);

    await provider.shutdown();
    const recorded = await printRecordedTraces(env, { expectedTraces: QUESTIONS.length });
    const shared = recorded.filter((trace) => ownTraceIds.has(trace.traceId)).length;
    console.log(
      `${shared} of the ${recorded.length} traces AQM recorded went to the app's own exporter too.`,
    );
    if (shared !== QUESTIONS.length) {
      throw new Error(`expected both pipelines to receive all ${QUESTIONS.length} traces, ${shared} matched`);
    }
  } finally {
    await env.close();
  }
});
