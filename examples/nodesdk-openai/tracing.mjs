import { register } from 'node:module';
import { AqmLogRecordProcessor, AqmSpanProcessor } from '@aqm/otel';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { NodeSDK } from '@opentelemetry/sdk-node';

/**
 * OpenTelemetry's NodeSDK with AQM: `AqmSpanProcessor` sends each LLM interaction to AQM, and
 * `AqmLogRecordProcessor` joins the message content that the official OpenAI instrumentation
 * reports as log records (without it, prompts and responses arrive empty, and @aqm/otel says so
 * through `diag`).
 *
 * Call it before `openai` is imported: the instrumentation patches the module as it loads.
 *
 * @param {{ apiKey: string, baseUrl: string, applicationId: string }} aqm Where the traces go
 *   (`new AqmSpanProcessor()` with no options reads AQM_API_KEY, AQM_BASE_URL, AQM_APPLICATION_ID).
 * @returns {{ processor: AqmSpanProcessor, sdk: NodeSDK }}
 * @example
 * const { sdk } = startTracing({ apiKey, baseUrl, applicationId });
 * const { askQuestion } = await import('./app.mjs');
 */
export function startTracing(aqm) {
  // In an ES module app, patching a module as it loads needs this loader hook.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const processor = new AqmSpanProcessor(aqm);
  const sdk = new NodeSDK({
    serviceName: 'nodesdk-openai-example',
    spanProcessors: [processor],
    logRecordProcessors: [new AqmLogRecordProcessor(processor)],
    instrumentations: [new OpenAIInstrumentation({ captureMessageContent: true })],
    // No metrics here: without this NodeSDK exports them over OTLP to localhost:4318 (its default).
    metricReaders: [],
  });
  sdk.start();
  return { processor, sdk };
}
