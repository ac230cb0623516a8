// NodeSDK with the official OpenAI instrumentation, in a CommonJS app: the same run as main.mjs.
const { startTracing } = require('./tracing.cjs');

const QUESTIONS = ['Can I take a power bank in my checked bag?', 'What is the cabin baggage size limit?'];

async function main() {
  // The examples' shared helpers are an ES module: CommonJS loads them with import().
  const { describeEnvironment, printRecordedTraces, runExample, startLocalEnvironment } = await import(
    'example-local-env'
  );
  await runExample('nodesdk-openai (CommonJS)', async () => {
    const env = await startLocalEnvironment({ name: 'example-nodesdk-openai-cjs' });
    try {
      console.log(describeEnvironment(env));
      const { processor, sdk } = startTracing(env.aqm);
      // Required only now, after the SDK started, so the instrumentation sees `openai` load.
      const { createAsker } = require('./app.cjs');
      const ask = createAsker(env.llm);
      for (const question of QUESTIONS) console.log(`user: ${question}\nassistant: ${await ask(question)}`);
      await processor.forceFlush();
      await sdk.shutdown();
      await printRecordedTraces(env, { expectedTraces: QUESTIONS.length });
    } finally {
      await env.close();
    }
  });
}

main();
