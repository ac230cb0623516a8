// The other setup of the otel README for an app whose NodeSDK already exports over OTLP: both span
// processors listed (`spanProcessors` replaces `traceExporter`). Fails unless the other backend got
// the trace too.
const { startFakeLlm } = require('@aqm/fake-llm');
const { AqmLogRecordProcessor, AqmSpanProcessor } = require('@aqm/otel');
const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
const { OpenAIInstrumentation } = require('@opentelemetry/instrumentation-openai');
const { NodeSDK } = require('@opentelemetry/sdk-node');
const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { startOtherBackend } = require('./backend.cjs');

async function main() {
  const other = await startOtherBackend();
  const processor = new AqmSpanProcessor();
  const sdk = new NodeSDK({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: other.tracesUrl })), processor],
    logRecordProcessors: [new AqmLogRecordProcessor(processor)],
    instrumentations: [new OpenAIInstrumentation({ captureMessageContent: true })],
    metricReaders: [],
  });
  sdk.start();
  const OpenAI = require('openai');
  const llm = await startFakeLlm();
  const prompt = `How early should I be at the airport? (keep-exporter, spanProcessors, ${process.pid})`;
  try {
    const openai = new OpenAI({ apiKey: 'test', baseURL: llm.url });
    await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: prompt }],
    });
    await processor.forceFlush();
    await sdk.shutdown();
  } finally {
    await llm.close();
    await other.close();
  }
  if (other.traceIds.size !== 1)
    throw new Error(`the other backend got ${other.traceIds.size} traces, not 1`);
  console.log(JSON.stringify({ prompt, traces: 1 }));
}
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
