// @aqm/otel README on the 3.x SDK line: AqmSpanExporter behind the 3.x BatchSpanProcessor, from CommonJS.
const { AqmSpanExporter, withLlmSpan } = require('@aqm/otel');
const { trace } = require('@opentelemetry/api');
const { BatchSpanProcessor, TracerProvider } = require('@opentelemetry/sdk-trace');

async function main() {
  const prompt = `What is the refund policy? (otel-sdk-3, CJS, ${process.pid})`;
  const provider = new TracerProvider({
    spanProcessors: [new BatchSpanProcessor({ exporter: new AqmSpanExporter() })],
  });
  trace.setGlobalTracerProvider(provider);
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
