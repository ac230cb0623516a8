// Runs the plain OpenTelemetry app (telemetry.mjs + app.mjs) with its OTLP exporters pointed at
// @aqm/forwarder, which sends each conversation to AQM. The local service and the fake model
// start here unless AQM_BASE_URL (and OPENAI_BASE_URL) say otherwise.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startForwarder } from '@aqm/forwarder';
import {
  describeEnvironment,
  printRecordedTraces,
  runExample,
  startLocalEnvironment,
} from 'example-local-env';

await runExample('otlp-forwarder', async () => {
  const env = await startLocalEnvironment({ name: 'example-otlp-forwarder' });
  try {
    console.log(describeEnvironment(env));
    // In production: `npx aqm-forwarder` (or the image in deploy/) with AQM_API_KEY,
    // AQM_BASE_URL and AQM_APPLICATION_ID set; port 0 here so the example never collides.
    // OTEL_EXPORTER_OTLP_PROTOCOL=grpc: the app's gRPC exporters send to the forwarder's gRPC port.
    const grpc = process.env.OTEL_EXPORTER_OTLP_PROTOCOL === 'grpc';
    const forwarder = await startForwarder({ ...env.aqm, port: 0, ...(grpc ? { grpcPort: 0 } : {}) });
    const endpoint = grpc ? forwarder.grpcUrl : forwarder.url;
    console.log(`Forwarder listening on ${endpoint}${grpc ? ' (OTLP/gRPC)' : ''}`);
    try {
      const app = spawn(process.execPath, ['--import', './telemetry.mjs', 'app.mjs'], {
        cwd: fileURLToPath(new URL('.', import.meta.url)),
        stdio: ['ignore', 'inherit', 'inherit'],
        env: {
          ...process.env,
          OPENAI_BASE_URL: env.llm.baseURL,
          OPENAI_API_KEY: env.llm.apiKey,
          OPENAI_MODEL: env.llm.model,
          // The whole link between the app and AQM: standard OpenTelemetry variables.
          OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
          OTEL_SERVICE_NAME: 'acme-travel-support',
          OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
          OTEL_METRICS_EXPORTER: 'none',
        },
      });
      const [code] = await once(app, 'exit');
      if (code !== 0) throw new Error(`the app exited with code ${code}`);
    } finally {
      // Completes the traces it holds and delivers them before resolving.
      await forwarder.close();
    }
    await printRecordedTraces(env, { expectedTraces: 2 });
  } finally {
    await env.close();
  }
});
