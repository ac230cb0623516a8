import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type FakeLlm, startFakeLlm } from '@aqm/fake-llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';

// The example app: NodeSDK with the official OTLP exporters (proto or JSON) and the OpenAI
// instrumentation, calling the real `openai` package. It knows nothing of AQM.
const APP_DIR = fileURLToPath(new URL('../../../examples/otlp-forwarder/', import.meta.url));

let stack: ForwarderStack;
let llm: FakeLlm;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-real-clients');
  llm = await startFakeLlm({ port: 0 });
});
afterAll(async () => {
  await llm?.close();
  await stack?.close();
});

async function runApp(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', './telemetry.mjs', 'app.mjs'], {
    cwd: APP_DIR,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe.each([
  ['http/protobuf', 'exporter-*-otlp-proto'],
  ['http/json', 'exporter-*-otlp-http'],
  ['grpc', 'exporter-*-otlp-grpc'],
])('a NodeSDK app exporting %s (%s) through the forwarder', (protocol) => {
  it('every conversation reaches the service with its prompt and response (content from log records)', async () => {
    const token = `ingest-${randomUUID()}`;
    const grpc = protocol === 'grpc';
    const forwarder = await stack.forwarder({ ingestTokens: [token], ...(grpc ? { grpcPort: 0 } : {}) });
    const questions = [`${protocol}: what is the refund policy?`, `${protocol}: how much baggage, streamed?`];
    const run = await runApp({
      OPENAI_BASE_URL: llm.url,
      OPENAI_API_KEY: 'fake-llm-needs-no-key',
      QUESTION_ONE: questions[0] as string,
      QUESTION_TWO: questions[1] as string,
      // For grpc, the receiver's own address; OTEL_EXPORTER_OTLP_HEADERS become gRPC metadata.
      OTEL_EXPORTER_OTLP_ENDPOINT: (grpc ? forwarder.grpcUrl : forwarder.url) as string,
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${token}`,
      OTEL_SERVICE_NAME: 'real-client-app',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
      OTEL_METRICS_EXPORTER: 'none',
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const answers = [...run.stdout.matchAll(/^assistant: (.*)$/gm)].map((match) => match[1]);
    expect(answers).toHaveLength(2);

    // The app exited after its SDK flushed; close() completes what the forwarder holds and delivers it.
    await forwarder.close();
    const stats = forwarder.stats();
    if (grpc) {
      const { grpcResponses } = stats;
      expect(
        grpcResponses['/opentelemetry.proto.collector.trace.v1.TraceService/Export OK'],
      ).toBeGreaterThanOrEqual(1);
      expect(
        grpcResponses['/opentelemetry.proto.collector.logs.v1.LogsService/Export OK'],
      ).toBeGreaterThanOrEqual(1);
      expect(Object.keys(stats.responses).filter((key) => key.startsWith('POST'))).toEqual([]);
    } else {
      expect(stats.responses[`POST /v1/traces 200`]).toBeGreaterThanOrEqual(1);
      expect(stats.responses[`POST /v1/logs 200`]).toBeGreaterThanOrEqual(1);
    }
    expect(stats.pipeline.exportedTraces).toBe(2);
    expect(stats.joinedLogRecords).toBeGreaterThanOrEqual(4);

    const byPrompt = new Map<string, { response: string; model: string | undefined }>();
    for await (const summary of stack.service.client.traces.iterate(stack.applicationId, { limit: 100 })) {
      const trace = await stack.service.client.traces.get(stack.applicationId, summary.traceId);
      byPrompt.set(trace.prompt, { response: trace.response, model: trace.model });
    }
    for (const [index, question] of questions.entries()) {
      const stored = byPrompt.get(question);
      expect(stored, `the trace of "${question}"`).toBeDefined();
      expect(stored?.response).toBe(answers[index]);
      expect(stored?.model).toBe('gpt-4o-mini');
    }
  });
});
