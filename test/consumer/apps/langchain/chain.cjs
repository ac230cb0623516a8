// @aqm/langchain README's runnable example, sent to the service, from CommonJS.
const { AqmCallbackHandler } = require('@aqm/langchain');
const { AqmSpanProcessor } = require('@aqm/otel');
const { FakeListChatModel } = require('@langchain/core/utils/testing');
const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');

async function main() {
  const provider = new NodeTracerProvider({ spanProcessors: [new AqmSpanProcessor()] });
  provider.register();
  const prompt = `What is the capital of Norway? (langchain, CJS, ${process.pid})`;
  const model = new FakeListChatModel({ responses: ['Oslo is the capital of Norway.'] });
  await model.invoke(prompt, { callbacks: [new AqmCallbackHandler()] });
  await provider.forceFlush();
  await provider.shutdown();
  console.log(JSON.stringify({ prompt }));
}
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
