// @aqm/otel README, setup 1 (AqmSpanProcessor on a NodeTracerProvider) with withLlmSpan.
// AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID come from the environment.
import { AqmSpanProcessor, withLlmSpan } from '@aqm/otel';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

const prompt = `What is the refund policy? (otel-sdk-2, ESM, ${process.pid})`;
const provider = new NodeTracerProvider({ spanProcessors: [new AqmSpanProcessor({ environment: 'test' })] });
provider.register();
await withLlmSpan({ model: 'gpt-4o-mini', provider: 'openai', prompt }, async (span) => {
  span.setResponse('Refunds are possible within 30 days.').setUsage({ inputTokens: 9, outputTokens: 8 });
});
await provider.forceFlush(); // resolves once the service accepted the trace
await provider.shutdown();
console.log(JSON.stringify({ prompt }));
