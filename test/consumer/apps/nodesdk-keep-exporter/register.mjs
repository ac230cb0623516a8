// The recommended setup of the otel README for an app whose NodeSDK already exports over OTLP:
// registerAqm() after sdk.start(). Fails unless the other backend got the trace too.
import { register } from 'node:module';
import { startFakeLlm } from '@aqm/fake-llm';
import { registerAqm } from '@aqm/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { NodeSDK } from '@opentelemetry/sdk-node';
import backend from './backend.cjs';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
const other = await backend.startOtherBackend();
const sdk = new NodeSDK({
  traceExporter: new OTLPTraceExporter({ url: other.tracesUrl }),
  instrumentations: [new OpenAIInstrumentation({ captureMessageContent: true })],
  logRecordProcessors: [],
  metricReaders: [],
});
sdk.start();
const aqm = registerAqm();
const { default: OpenAI } = await import('openai');
const llm = await startFakeLlm();
const prompt = `Which documents do I need to fly to Canada? (keep-exporter, registerAqm, ${process.pid})`;
try {
  const openai = new OpenAI({ apiKey: 'test', baseURL: llm.url });
  await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: prompt }],
  });
  await aqm.processor.forceFlush();
  await sdk.shutdown();
  await aqm.shutdown();
} finally {
  await llm.close();
  await other.close();
}
if (other.traceIds.size !== 1) throw new Error(`the other backend got ${other.traceIds.size} traces, not 1`);
console.log(JSON.stringify({ prompt, traces: 1 }));
