// Plain OpenTelemetry, as any Node app would set it up: NodeSDK, the official OTLP exporters and
// the OpenAI instrumentation. Nothing here knows about AQM: the exporters send to whatever
// OTEL_EXPORTER_OTLP_ENDPOINT names (here, the forwarder). Load it first:
//   node --import ./telemetry.mjs app.mjs
import { register } from 'node:module';
import { OTLPLogExporter as GrpcLogExporter } from '@opentelemetry/exporter-logs-otlp-grpc';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { BatchLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { NodeSDK } from '@opentelemetry/sdk-node';

// In an ES module app, patching `openai` as it loads needs this loader hook.
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

// OTEL_EXPORTER_OTLP_PROTOCOL picks the protocol, as in every OpenTelemetry SDK:
// http/protobuf (the default), http/json, or grpc (to the forwarder's --grpc-port).
const protocol = process.env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
const exporters = {
  'http/protobuf': () => [new ProtoTraceExporter(), new ProtoLogExporter()],
  'http/json': () => [new JsonTraceExporter(), new JsonLogExporter()],
  grpc: () => [new GrpcTraceExporter(), new GrpcLogExporter()],
};
const [traceExporter, logExporter] = (exporters[protocol] ?? exporters['http/protobuf'])();
const sdk = new NodeSDK({
  traceExporter,
  // The OpenAI instrumentation puts prompts and responses on log records (with
  // OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true), so logs are exported too.
  logRecordProcessors: [new BatchLogRecordProcessor({ exporter: logExporter })],
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
