// @aqm/express README's runnable example, from CommonJS.
const { aqm, aqmErrorHandler } = require('@aqm/express');
const { AqmSpanProcessor } = require('@aqm/otel');
const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
const express = require('express');

async function main() {
  const processor = new AqmSpanProcessor();
  new NodeTracerProvider({ spanProcessors: [processor] }).register();
  const app = express();
  app.use(express.json());
  app.use(aqm({ capture: { prompt: (req) => req.body.message, response: (body) => body.reply } }));
  app.post('/chat', (req, res) => res.json({ reply: `You said: ${req.body.message}` }));
  app.use(aqmErrorHandler());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const prompt = `Hello from express (CJS, ${process.pid})`;
  const res = await fetch(`http://127.0.0.1:${server.address().port}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: prompt }),
  });
  await res.json();
  await new Promise((resolve) => server.close(resolve));
  await processor.forceFlush();
  await processor.shutdown();
  console.log(JSON.stringify({ prompt }));
}
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
