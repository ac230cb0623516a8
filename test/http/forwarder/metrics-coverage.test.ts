import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningForwarder, startForwarder } from '@aqm/forwarder';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../otel/helpers/wait.js';
import { neverEndingBody } from '../server/helpers.js';
import { llmTraceSpans, postOtlp, protoBody } from './helpers/otlp-bodies.js';
import { rawRequest } from './helpers/raw-request.js';

/** A loopback port nothing listens on: the service is unreachable. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Writes `text` on a new connection and resolves with all that comes back before it closes. */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function forwarderWithoutService(options: Record<string, unknown> = {}): Promise<RunningForwarder> {
  const forwarder = await startForwarder({
    apiKey: 'unreachable-key',
    baseUrl: `http://127.0.0.1:${await closedPort()}/api`,
    applicationId: randomUUID(),
    port: 0,
    rootGraceMs: 0,
    batchDelayMs: 0,
    shutdownTimeoutMs: 300,
    ...options,
  });
  cleanups.push(() => forwarder.close());
  return forwarder;
}

async function metricsOf(forwarder: RunningForwarder): Promise<string> {
  return (await fetch(`${forwarder.url}/metrics`)).text();
}

describe('/metrics', () => {
  it('counts the answers given before routing: 400, 408 and 431', async () => {
    const forwarder = await forwarderWithoutService({ receiveTimeoutMs: 300 });
    const port = Number(new URL(forwarder.url).port);
    const slow = await neverEndingBody(
      port,
      'POST /v1/traces HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n',
    );
    expect(slow).toMatch(/^HTTP\/1\.1 408 /);
    expect(await exchange(port, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    const bigHeaders = `GET /healthz HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20 * 1024)}\r\n\r\n`;
    expect(await exchange(port, bigHeaders)).toMatch(/^HTTP\/1\.1 431 /);
    // A path that does not decode: refused by the router, with a Status body like the others.
    const badUrl = await rawRequest(forwarder.url, 'POST', '/v1/%zz', {
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{}'),
    });
    expect(badUrl.status).toBe(400);
    expect(JSON.parse(badUrl.text)).toMatchObject({ code: 3 });

    const metrics = await metricsOf(forwarder);
    expect(metrics).toContain('aqm_forwarder_http_responses_total{method="",path="",code="408"} 1\n');
    expect(metrics).toContain('aqm_forwarder_http_responses_total{method="",path="",code="400"} 2\n');
    expect(metrics).toContain('aqm_forwarder_http_responses_total{method="",path="",code="431"} 1\n');
    expect(forwarder.stats().responsesBeforeRouting).toEqual({ '400': 2, '408': 1, '431': 1 });
    // Each answer once: nothing of these went through the routes' own count.
    expect(Object.keys(forwarder.stats().responses).filter((key) => !key.startsWith('GET /metrics'))).toEqual(
      [],
    );
  });

  it('reports persistDir: traces spilled while the service is unreachable, files, bytes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aqm-forwarder-metrics-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    // Retries given up at once: the trace goes to disk.
    const forwarder = await forwarderWithoutService({ persistDir: dir, maxRetryElapsedMs: 0 });
    const answer = await postOtlp(forwarder.url, protoBody(llmTraceSpans('spill?', 'spilled.').spans));
    expect(answer.status).toBe(200);
    await waitFor(() => forwarder.stats().pipeline.disk?.spilledTraces === 1, 'the trace on disk');

    const metrics = await metricsOf(forwarder);
    expect(metrics).toContain(
      '# HELP aqm_forwarder_disk_spilled_traces_total Traces written to persistDir.\n' +
        '# TYPE aqm_forwarder_disk_spilled_traces_total counter\n' +
        'aqm_forwarder_disk_spilled_traces_total 1\n',
    );
    expect(metrics).toContain('# TYPE aqm_forwarder_disk_writable gauge\naqm_forwarder_disk_writable 1\n');
    expect(metrics).toContain('aqm_forwarder_disk_files 1\n');
    expect(metrics).toContain('aqm_forwarder_disk_traces 1\n');
    expect(metrics).toMatch(/\naqm_forwarder_disk_bytes [1-9]\d*\n/);
    expect(metrics).toMatch(/\naqm_forwarder_disk_oldest_age_seconds \d+(\.\d+)?\n/);
    expect(metrics).toContain('aqm_forwarder_disk_replayed_traces_total 0\n');
    expect(metrics).toContain('aqm_forwarder_disk_corrupt_files_total 0\n');
    expect(metrics).toContain('aqm_forwarder_disk_logged_traces_total 0\n');
  });

  it('counts spans that arrive after their trace was sent (the same spans posted again)', async () => {
    const forwarder = await forwarderWithoutService({ persistDir: undefined, maxRetryElapsedMs: 0 });
    const { spans } = llmTraceSpans('late?', 'late.');
    expect((await postOtlp(forwarder.url, protoBody(spans))).status).toBe(200);
    // Its root came: the trace is complete and handed on; the same spans again are late.
    await waitFor(() => forwarder.stats().pipeline.openTraces === 0, 'the trace completed');
    expect((await postOtlp(forwarder.url, protoBody(spans))).status).toBe(200);
    await waitFor(() => forwarder.stats().pipeline.lateSpans === spans.length, 'the late spans counted');
    expect(await metricsOf(forwarder)).toContain(`\naqm_forwarder_spans_late_total ${spans.length}\n`);
  });

  it('has no disk lines without persistDir', async () => {
    const forwarder = await forwarderWithoutService();
    expect(await metricsOf(forwarder)).not.toContain('aqm_forwarder_disk_');
  });
});
