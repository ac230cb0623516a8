import { once } from 'node:events';
import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../otel/helpers/service.js';
import { waitFor } from '../otel/helpers/wait.js';
import { killForwarderProcesses, serviceEnv, startForwarderProcess } from './helpers/forwarder-process.js';
import { llmTraceSpans, postOtlp, protoBody } from './helpers/otlp-bodies.js';

// The bin's debug switch (`--debug`, AQM_DEBUG=1, OTEL_LOG_LEVEL=debug), read on its stderr: the
// configuration without the key, each request received and admitted, each trace sent or skipped
// (with the attribute keys seen), a drop; and without the switch, none of it.

let service: TestService;
let applicationId: string;
beforeAll(async () => {
  service = await startTestService('forwarder-debug');
  applicationId = await service.createApp('forwarder-debug');
});
afterEach(() => {
  service.srv.setFaults(null);
  killForwarderProcesses();
});
afterAll(async () => {
  await service?.close();
});

function start(args: string[], env: Record<string, string>) {
  return startForwarderProcess(['--port', '0', '--root-grace-ms', '0', ...args], {
    ...serviceEnv(service, applicationId),
    ...env,
  });
}

/** A request's trace with no LLM span: an HTTP server span of the app's own. */
function healthCheckSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const span = provider.getTracer('forwarder-debug').startSpan(
    'GET /health',
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': 'GET', 'url.path': '/health', 'evil\u001b]0;titlekey': 1 },
    },
    ROOT_CONTEXT,
  );
  span.end();
  return { traceId: span.spanContext().traceId, spans: exporter.getFinishedSpans() };
}

const SWITCHES: [string, string[], Record<string, string>][] = [
  ['--debug', ['--debug'], {}],
  ['AQM_DEBUG=1', [], { AQM_DEBUG: '1' }],
  ['OTEL_LOG_LEVEL=debug', [], { OTEL_LOG_LEVEL: 'debug' }],
];

describe('aqm-forwarder debug lines', () => {
  it.each(SWITCHES)(
    '%s: config (no key), each request, a trace sent, a trace skipped with its keys, a drop',
    async (_name, args, env) => {
      const { child, output, url } = await start(args, env);
      const sent = llmTraceSpans('debug question?', 'debug answer.');
      const health = healthCheckSpans();
      expect((await postOtlp(url, protoBody(sent.spans))).status).toBe(200);
      expect((await postOtlp(url, protoBody(health.spans))).status).toBe(200);
      await waitFor(() => output.stderr.includes(`trace ${sent.traceId} sent:`), 'the sent line');
      await waitFor(() => output.stderr.includes(`trace ${health.traceId} skipped`), 'the skipped line');

      // A request the service refuses (400): the trace is dropped, reason rejected.
      service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 400 }] });
      const refused = llmTraceSpans('refused question?', 'refused answer.');
      expect((await postOtlp(url, protoBody(refused.spans))).status).toBe(200);
      await waitFor(() => output.stderr.includes(`(${refused.traceId}), reason rejected`), 'the drop line');
      child.kill('SIGTERM');
      await once(child, 'exit');

      const lines = output.stderr.trim().split('\n');
      console.info(`[forwarder ${_name}] ${lines.length} stderr lines:\n${lines.join('\n')}`);
      expect(output.stdout + output.stderr).not.toContain(service.apiKey);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: no raw control character may reach stderr
      expect(output.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      const find = (pattern: RegExp) => lines.find((line) => pattern.test(line));
      expect(
        find(/^@aqm\/forwarder debug: config: forwarder listening on http:\/\/127\.0\.0\.1:\d+ /),
      ).toContain('apiKey=set (redacted)');
      expect(find(/^@aqm\/forwarder debug: config: endpoint=/)).toContain(`application=${applicationId}`);
      expect(
        find(
          /^@aqm\/forwarder debug: POST \/v1\/traces: received 3 span\(s\), \d+ bytes; 3 accepted, 0 rejected$/,
        ),
      ).toBeDefined();
      expect(
        find(
          new RegExp(
            `^@aqm/forwarder debug: 3 span\\(s\\) of 1 trace\\(s\\) for application ${applicationId}: admitted$`,
          ),
        ),
      ).toBeDefined();
      expect(
        find(new RegExp(`trace ${sent.traceId} sent: prompt 15 chars, response 13 chars, model gpt-4o-mini`)),
      ).toMatch(/accepted by the service \(HTTP 2xx, request of 1 trace\(s\)\)$/);
      expect(
        find(new RegExp(`trace ${health.traceId} skipped: no LLM span among its 1 span\\(s\\)`)),
      ).toContain('attribute keys seen: http.request.method, url.path, evil\\u001b]0;titlekey');
      expect(
        find(new RegExp(`request of 1 trace\\(s\\) \\(${refused.traceId}\\) not accepted: 400 `)),
      ).toBeDefined();
      expect(
        find(new RegExp(`dropped 1 trace\\(s\\) \\(${refused.traceId}\\), reason rejected: `)),
      ).toBeDefined();
    },
  );

  it('without a switch: none of these lines, and nothing on stderr on the happy path', async () => {
    const { child, output, url } = await start([], { OTEL_LOG_LEVEL: '', AQM_DEBUG: '' });
    const sent = llmTraceSpans('quiet question?', 'quiet answer.');
    expect((await postOtlp(url, protoBody(sent.spans))).status).toBe(200);
    expect((await postOtlp(url, protoBody(healthCheckSpans().spans))).status).toBe(200);
    child.kill('SIGTERM');
    await once(child, 'exit');
    expect(output.stdout).toContain('stopped (1 traces delivered, 0 dropped)');
    expect(output.stderr).toBe('');
  });
});
