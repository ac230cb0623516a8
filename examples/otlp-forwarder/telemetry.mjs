// Plain OpenTelemetry, as any Node app would set it up: NodeSDK, the official OTLP exporters and
// the OpenAI instrumentation. Nothing here knows about AQM: the exporters send to whatever
// OTEL_EXPORTER_OTLP_ENDPOINT names (here, the forwarder). Load it first:
//   node --import ./telemetry.mjs app.mjs
import { register } from 'node:module';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { BatchLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { NodeSDK } from '@opentelemetry/sdk-node';

// In an ES module app, patching `openai` as it loads needs this loader hook.
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

// OTEL_EXPORTER_OTLP_PROTOCOL picks the encoding, as in every OpenTelemetry SDK:
// http/protobuf (the default) or http/json.
const json = process.env.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json';
const sdk = new NodeSDK({
  traceExporter: json ? new JsonTraceExporter() : new ProtoTraceExporter(),
  // The OpenAI instrumentation puts prompts and responses on log records (with
  // OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true), so logs are exported too.
  logRecordProcessors: [
    new BatchLogRecordProcessor({ exporter: json ? new JsonLogExporter() : new ProtoLogExporter() }),
  ],
  instrumentations: [new OpenAIInstrumentation()],
});
sdk.start();

// Export what is still batched when the app's work is done.
let shuttingDown = false;
process.on('beforeExit', () => {
  if (shuttingDown) return;
  shuttingDown = true;
  sdk.shutdown().catch((error) => console.error(`OpenTelemetry shutdown failed: ${error.message}`));
});
