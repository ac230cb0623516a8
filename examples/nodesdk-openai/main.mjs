// NodeSDK with the official OpenAI instrumentation, in an ES module app. Against the local
// service and the fake model unless AQM_BASE_URL (and OPENAI_BASE_URL) are set.
import {
  describeEnvironment,
  printRecordedTraces,
  runExample,
  startLocalEnvironment,
} from 'example-local-env';
import { startTracing } from './tracing.mjs';

const QUESTIONS = ['Which documents do I need to fly to Canada?', 'How early should I be at the airport?'];

await runExample('nodesdk-openai', async () => {
  const env = await startLocalEnvironment({ name: 'example-nodesdk-openai' });
  try {
    console.log(describeEnvironment(env));
    const { processor, sdk } = startTracing(env.aqm);
    // Imported only now, after the SDK started, so the instrumentation sees `openai` load.
    const { createAsker } = await import('./app.mjs');
    const ask = createAsker(env.llm);
    for (const question of QUESTIONS) console.log(`user: ${question}\nassistant: ${await ask(question)}`);
    await processor.forceFlush(); // resolves once the service accepted every finished trace
    await sdk.shutdown();
    await printRecordedTraces(env, { expectedTraces: QUESTIONS.length });
  } finally {
    await env.close();
  }
});
