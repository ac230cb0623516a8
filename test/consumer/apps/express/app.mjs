// @aqm/express README's runnable example: the middleware with `capture`, spans sent by
// AqmSpanProcessor. The app listens on a free port, answers one request, flushes and stops.
import { aqm, aqmErrorHandler } from '@aqm/express';
import { AqmSpanProcessor } from '@aqm/otel';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import express from 'express';

const processor = new AqmSpanProcessor(); // AQM_API_KEY, AQM_BASE_URL, AQM_APPLICATION_ID
new NodeTracerProvider({ spanProcessors: [processor] }).register();

const app = express();
app.use(express.json());
app.use(
  aqm({
    environment: 'development',
    capture: { prompt: (req) => req.body.message, response: (body) => body.reply },
  }),
);
app.post('/chat', (req, res) => res.json({ reply: `You said: ${req.body.message}` }));
app.use(aqmErrorHandler());

const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const prompt = `Hello from express (ESM, ${process.pid})`;
const res = await fetch(`http://127.0.0.1:${server.address().port}/chat`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-session-id': 's-1' },
  body: JSON.stringify({ message: prompt }),
});
await res.json();
await new Promise((resolve) => server.close(resolve));
await processor.forceFlush();
await processor.shutdown();
console.log(JSON.stringify({ prompt }));
