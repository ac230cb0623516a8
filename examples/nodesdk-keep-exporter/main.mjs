// NodeSDK exporting to another backend over OTLP, with AQM added beside it. `node main.mjs` uses
// registerAqm() after sdk.start() (recommended); `node main.mjs --span-processors` lists both
// span processors. Against the local service and the fake model unless AQM_BASE_URL (and
// OPENAI_BASE_URL) are set; the other backend is a receiver on loopback (other-backend.mjs).
import {
  describeEnvironment,
  printRecordedTraces,
  runExample,
  startLocalEnvironment,
} from 'example-local-env';
import { startOtherBackend } from './other-backend.mjs';
import { startWithRegisterAqm, startWithSpanProcessors } from './tracing.mjs';

const QUESTIONS = ['Which documents do I need to fly to Canada?', 'How early should I be at the airport?'];
const withSpanProcessors = process.argv.includes('--span-processors');

await runExample('nodesdk-keep-exporter', async () => {
  const env = await startLocalEnvironment({ name: 'example-nodesdk-keep-exporter' });
  const backend = await startOtherBackend();
  try {
    console.log(describeEnvironment(env));
    const start = withSpanProcessors ? startWithSpanProcessors : startWithRegisterAqm;
    const tracing = start(env.aqm, backend.tracesUrl);
    // Imported only now, after the SDK started, so the instrumentation sees `openai` load.
    const { createAsker } = await import('./app.mjs');
    const ask = createAsker(env.llm);
    for (const question of QUESTIONS) console.log(`user: ${question}\nassistant: ${await ask(question)}`);
    await tracing.flush(); // resolves once the service accepted every finished trace
    await tracing.shutdown();
    const traces = await printRecordedTraces(env, { expectedTraces: QUESTIONS.length });
    const both = traces.filter((trace) => backend.traceIds.has(trace.traceId)).length;
    console.log(
      `The other backend received ${backend.traceIds.size} traces; ${both} of them are the ones above.`,
    );
    if (both < traces.length) throw new Error('the other backend did not get every trace AQM recorded');
  } finally {
    await backend.close();
    await env.close();
  }
});
