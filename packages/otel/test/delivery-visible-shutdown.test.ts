// What an app with no logging set up sees when delivery fails in ways the outage report does not
// cover: a 401/404 met first while shutting down (a script that only calls shutdown()), and a
// refusal that drops batches instead of retrying them (403, 405, 409, ...).
import { DiagLogLevel, diag } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { AqmSpanProcessor } from '../src/processor.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import { errorReply } from './export-helpers/fake-service.js';
import { fakeLlmSpan, randomTraceId } from './export-helpers/fake-span.js';
import { ManualTime } from './export-helpers/manual-time.js';
import { aqmOptions } from './export-helpers/otel-setup.js';
import { API_KEY, APPLICATION_ID } from './export-helpers/sender-setup.js';
import { withServiceAndStderr } from './export-helpers/stderr-setup.js';

const setup = withServiceAndStderr();
const stderrLines = setup.stderrLines;

describe('a 401 or a 404 met first during shutdown', () => {
  it('401: one stderr line says to check AQM_API_KEY and how many traces were lost (before: nothing)', async () => {
    setup.service().handler = () => errorReply(401, 'Invalid API key');
    const processor = new AqmSpanProcessor(aqmOptions(setup.service(), { batchDelayMs: 60_000 }));
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await processor.shutdown(); // the first request goes now, and is refused
    expect(setup.service().requests.length).toBeGreaterThan(0);
    expect(processor.stats().droppedTraces.byReason.shutdown).toBe(2);
    const lines = stderrLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^@aqm\/otel: The service rejected the API key \(401\)\. Check AQM_API_KEY/);
    expect(lines[0]).toContain('2 trace(s) were not delivered before shutdown.');
    expect(lines.join('')).not.toContain(API_KEY);
  });

  it('404: the line names the application id and the base URL path prefix', async () => {
    setup.service().handler = () => errorReply(404, 'Route POST /applications/x/evaluations not found');
    const processor = new AqmSpanProcessor(aqmOptions(setup.service(), { batchDelayMs: 60_000 }));
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await processor.shutdown();
    const lines = stderrLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('(404). Check AQM_APPLICATION_ID');
    expect(lines[0]).toContain(APPLICATION_ID);
    expect(lines[0]).toContain("AQM_BASE_URL (or `baseUrl`) includes the service's path prefix");
    expect(lines[0]).toContain('1 trace(s) were not delivered before shutdown.');
  });
});

describe('a refusal that drops batches (403 and other 4xx)', () => {
  it('says once on stderr that traces are dropped, with the answer and what to check, never the key', async () => {
    setup.service().handler = () => errorReply(403, `Forbidden for ${API_KEY}`);
    const processor = new AqmSpanProcessor(aqmOptions(setup.service(), { batchDelayMs: 0 }));
    for (let round = 0; round < 3; round += 1) {
      processor.onEnd(fakeLlmSpan(randomTraceId()));
      await processor.forceFlush();
    }
    expect(setup.service().requests).toHaveLength(3);
    expect(processor.stats().droppedTraces.byReason.failed).toBe(3);
    await processor.shutdown();
    const lines = stderrLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^@aqm\/otel: Traces were dropped and retrying would not help: 403 /);
    expect(lines[0]).toContain('Check AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID');
    expect(lines.join('')).not.toContain(API_KEY);
  });

  it('with a diag logger set, says it there once until a request succeeds, not once per batch', async () => {
    setup.service().handler = () => errorReply(409, 'conflict');
    const logs = new CaptureLogger();
    diag.setLogger(logs, { logLevel: DiagLogLevel.ERROR, suppressOverrideMessage: true });
    const processor = new AqmSpanProcessor(aqmOptions(setup.service(), { batchDelayMs: 0 }));
    for (let round = 0; round < 3; round += 1) {
      processor.onEnd(fakeLlmSpan(randomTraceId()));
      await processor.forceFlush();
    }
    await processor.shutdown();
    expect(logs.at('error').filter((message) => message.includes('retrying would not help'))).toHaveLength(1);
    expect(stderrLines()).toEqual([]);
  });

  it('an application id promise that rejects is said on stderr too (it was only in diag)', async () => {
    const processor = new AqmSpanProcessor({
      ...aqmOptions(setup.service(), { batchDelayMs: 0 }),
      applicationId: Promise.reject(new Error('lookup failed: 403 Forbidden')),
    });
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await processor.forceFlush();
    await processor.shutdown();
    expect(setup.service().requests).toHaveLength(0);
    const lines = stderrLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      'The application id could not be resolved, so no trace is sent: lookup failed: 403 Forbidden',
    );
  });

  it('requests cut by the shutdown deadline are not reported as refused', async () => {
    setup.service().handler = () => 'hang';
    const time = new ManualTime(false);
    const processor = new AqmSpanProcessor(
      aqmOptions(setup.service(), { batchDelayMs: 0, shutdownTimeoutMs: 200 }),
      {
        timing: time.timing,
      },
    );
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await setup.service().waitFor(() => setup.service().requests.length > 0);
    await processor.shutdown();
    expect(processor.stats().droppedTraces.byReason.shutdown).toBe(1);
    expect(stderrLines().join('')).not.toContain('retrying would not help');
  });
});
