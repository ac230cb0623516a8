// @aqm/otel README on the 3.x SDK line: AqmSpanProcessor on the 3.x TracerProvider.
import { AqmSpanProcessor, withLlmSpan } from '@aqm/otel';
import { trace } from '@opentelemetry/api';
import { TracerProvider } from '@opentelemetry/sdk-trace';

const prompt = `What is the refund policy? (otel-sdk-3, ESM, ${process.pid})`;
const provider = new TracerProvider({ spanProcessors: [new AqmSpanProcessor()] });
trace.setGlobalTracerProvider(provider);
await withLlmSpan({ model: 'gpt-4o-mini', provider: 'openai', prompt }, async (span) => {
  span.setResponse('Refunds are possible within 30 days.');
});
await provider.forceFlush();
await provider.shutdown();
console.log(JSON.stringify({ prompt }));
