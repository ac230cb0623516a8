const { AqmLogRecordProcessor, AqmSpanProcessor } = require('@aqm/otel');
const { OpenAIInstrumentation } = require('@opentelemetry/instrumentation-openai');
const { NodeSDK } = require('@opentelemetry/sdk-node');

/**
 * The CommonJS twin of `tracing.mjs`: NodeSDK with `AqmSpanProcessor` and `AqmLogRecordProcessor`.
 * No loader hook is needed: `require` is patched as it loads `openai`.
 *
 * @param {{ apiKey: string, baseUrl: string, applicationId: string }} aqm Where the traces go.
 * @returns {{ processor: import('@aqm/otel').AqmSpanProcessor, sdk: import('@opentelemetry/sdk-node').NodeSDK }}
 * @example
 * const { sdk } = startTracing({ apiKey, baseUrl, applicationId });
 * const { askQuestion } = require('./app.cjs');
 */
function startTracing(aqm) {
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

module.exports = { startTracing };
