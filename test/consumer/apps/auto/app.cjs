// An app started with `node --require @aqm/auto/register app.cjs` (AQM_APPLICATION_NAME in the
// environment). It records one GenAI span through the OpenTelemetry API, as an instrumentation
// would, and ends by itself: @aqm/auto flushes at exit.
const { SpanKind, trace } = require('@opentelemetry/api');

const prompt = `Where is my order? (auto, CJS, ${process.pid})`;
const span = trace.getTracer('consumer-app').startSpan('chat gpt-4o-mini', {
  kind: SpanKind.CLIENT,
  attributes: {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'gpt-4o-mini',
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]),
    'gen_ai.output.messages': JSON.stringify([
      { role: 'assistant', parts: [{ type: 'text', content: 'It ships today.' }], finish_reason: 'stop' },
    ]),
  },
});
span.end();
console.log(JSON.stringify({ prompt }));
