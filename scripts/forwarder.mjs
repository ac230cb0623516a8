#!/usr/bin/env node
// `pnpm forwarder` (after `pnpm build`): the local AQM service and an @aqm/forwarder in front of it,
// so any OpenTelemetry app (any language) can send OTLP to http://127.0.0.1:4318 and see its LLM
// traces recorded. With AQM_BASE_URL and AQM_API_KEY set, the forwarder sends there instead.
import { randomBytes } from 'node:crypto';
import { AqmClient } from '@aqm/client';
import { startForwarder } from '@aqm/forwarder';
import { startServer } from '@aqm/server';

const port = Number(process.env.PORT ?? 4318);
let server;
let apiKey = process.env.AQM_API_KEY ?? '';
let baseUrl = process.env.AQM_BASE_URL ?? '';
if (baseUrl === '') {
  apiKey = `aqm_dev_${randomBytes(16).toString('hex')}`;
  server = await startServer({ port: 0, apiKeys: [{ key: apiKey, projectId: 'forwarder' }] });
  baseUrl = server.url;
}
let applicationId = process.env.AQM_APPLICATION_ID ?? '';
const client = new AqmClient({ apiKey, baseUrl });
if (applicationId === '') {
  applicationId = (await client.applications.create({ name: `forwarder-${Date.now()}` })).id;
}
await client.close();

const forwarder = await startForwarder({ apiKey, baseUrl, applicationId, port });
console.log(
  [
    server === undefined ? `AQM service: ${baseUrl}` : `AQM local service: ${baseUrl} (in memory)`,
    `application: ${applicationId}`,
    `aqm-forwarder listening on ${forwarder.url}. Point any OpenTelemetry app at it:`,
    `  export OTEL_EXPORTER_OTLP_ENDPOINT=${forwarder.url}`,
    '  export OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true',
    server === undefined
      ? ''
      : `Read traces back with: AQM_BASE_URL=${baseUrl} AQM_API_KEY=${apiKey} npx aqm traces list ${applicationId}`,
    'Press Ctrl-C to stop.',
  ]
    .filter((line) => line !== '')
    .join('\n'),
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await forwarder.close();
  await server?.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
