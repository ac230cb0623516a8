// @aqm/otel README, setup 2 (AqmSpanExporter behind a BatchSpanProcessor), from CommonJS.
const { AqmSpanExporter, withLlmSpan } = require('@aqm/otel');
const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');

async function main() {
  const prompt = `What is the refund policy? (otel-sdk-2, CJS, ${process.pid})`;
  const provider = new NodeTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new AqmSpanExporter())],
  });
  provider.register();
  await withLlmSpan({ model: 'gpt-4o-mini', provider: 'openai', prompt }, async (span) => {
    span.setResponse('Refunds are possible within 30 days.');
  });
  await provider.forceFlush();
  await provider.shutdown();
  console.log(JSON.stringify({ prompt }));
}
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
