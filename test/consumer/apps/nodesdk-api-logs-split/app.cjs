// The otel README's NodeSDK setup (AqmSpanProcessor and AqmLogRecordProcessor) with two copies of
// @opentelemetry/api-logs installed (see combos.mjs): the content is lost, and stderr says why.
// Prints `{ prompt: '' }`: the trace the service holds has an empty prompt.
const { startFakeLlm } = require('@aqm/fake-llm');
const { AqmLogRecordProcessor, AqmSpanProcessor } = require('@aqm/otel');
const { OpenAIInstrumentation } = require('@opentelemetry/instrumentation-openai');
const { NodeSDK } = require('@opentelemetry/sdk-node');

async function main() {
  const processor = new AqmSpanProcessor();
  const sdk = new NodeSDK({
    spanProcessors: [processor],
    logRecordProcessors: [new AqmLogRecordProcessor(processor)],
    instrumentations: [new OpenAIInstrumentation({ captureMessageContent: true })],
    metricReaders: [],
  });
  sdk.start();
  const OpenAI = require('openai');
  const llm = await startFakeLlm();
  try {
    const openai = new OpenAI({ apiKey: 'test', baseURL: llm.url });
    await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: `A question lost on the way (${process.pid})` }],
    });
    await processor.forceFlush();
    await sdk.shutdown();
  } finally {
    await llm.close();
  }
  console.log(JSON.stringify({ prompt: '', traces: 1 }));
}
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
