import { register } from 'node:module';
import { AqmLogRecordProcessor, AqmSpanProcessor, registerAqm } from '@aqm/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

// In an ES module app, patching `openai` as it loads needs this loader hook.
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

const instrumentations = () => [new OpenAIInstrumentation({ captureMessageContent: true })];

/**
 * Recommended: the app's NodeSDK stays as it was (its `traceExporter` keeps sending to the other
 * backend), and `registerAqm()` after `sdk.start()` adds an `AqmSpanProcessor` to NodeSDK's tracer
 * provider and an `AqmLogRecordProcessor` to its logger provider (the OpenAI instrumentation's
 * content travels on log records). Call it before `openai` is imported.
 *
 * @param {{ apiKey: string, baseUrl: string, applicationId: string }} aqm Where AQM's traces go
 *   (`registerAqm()` with no options reads AQM_API_KEY, AQM_BASE_URL, AQM_APPLICATION_ID).
 * @param {string} otlpTracesUrl The other backend's OTLP/HTTP traces endpoint.
 * @returns {{ flush: () => Promise<void>, shutdown: () => Promise<void> }}
 * @example
 * const tracing = startWithRegisterAqm(aqm, 'http://collector:4318/v1/traces');
 */
export function startWithRegisterAqm(aqm, otlpTracesUrl) {
  const sdk = new NodeSDK({
    serviceName: 'nodesdk-keep-exporter-example',
    traceExporter: new OTLPTraceExporter({ url: otlpTracesUrl }),
    instrumentations: instrumentations(),
    // Nothing else over OTLP in this example (NodeSDK's defaults export logs and metrics to localhost:4318).
    logRecordProcessors: [],
    metricReaders: [],
  });
  sdk.start();
  const aqmRegistration = registerAqm({ ...aqm, flushOnExit: false });
  return {
    flush: () => aqmRegistration.processor.forceFlush(),
    shutdown: async () => {
      await sdk.shutdown(); // flushes the OTLP exporter too
      await aqmRegistration.shutdown();
    },
  };
}

/**
 * The same with the processors listed: `spanProcessors` replaces NodeSDK's `traceExporter`, so the
 * existing exporter goes in the list too, behind a `BatchSpanProcessor`, beside the `AqmSpanProcessor`.
 *
 * @param {{ apiKey: string, baseUrl: string, applicationId: string }} aqm Where AQM's traces go.
 * @param {string} otlpTracesUrl The other backend's OTLP/HTTP traces endpoint.
 * @returns {{ flush: () => Promise<void>, shutdown: () => Promise<void> }}
 * @example
 * const tracing = startWithSpanProcessors(aqm, 'http://collector:4318/v1/traces');
 */
export function startWithSpanProcessors(aqm, otlpTracesUrl) {
  const processor = new AqmSpanProcessor(aqm);
  const sdk = new NodeSDK({
    serviceName: 'nodesdk-keep-exporter-example',
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: otlpTracesUrl })), processor],
    logRecordProcessors: [new AqmLogRecordProcessor(processor)],
    instrumentations: instrumentations(),
    metricReaders: [],
  });
  sdk.start();
  return { flush: () => processor.forceFlush(), shutdown: () => sdk.shutdown() };
}
