import { DiagLogLevel, diag } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AqmSpanExporter } from '../src/exporter.js';
import { AqmSpanProcessor } from '../src/processor.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import { acceptReply, errorReply } from './export-helpers/fake-service.js';
import { fakeLlmSpan, randomTraceId } from './export-helpers/fake-span.js';
import { ManualTime } from './export-helpers/manual-time.js';
import { aqmOptions } from './export-helpers/otel-setup.js';
import { API_KEY } from './export-helpers/sender-setup.js';
import { withServiceAndStderr } from './export-helpers/stderr-setup.js';

const setup = withServiceAndStderr();
const stderrLines = setup.stderrLines;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * A processor with the package's own logger (what an app gets) and manual time whose sleeps never
 * end by themselves: a flush can only return because delivery finished or is known impossible.
 */
function processorWithoutLogging(time = new ManualTime(false)) {
  const processor = new AqmSpanProcessor(aqmOptions(setup.service(), { batchDelayMs: 0 }), {
    timing: time.timing,
  });
  closers.push(() => processor.shutdown());
  return { processor, time };
}

describe('a 401 or a 404 with no logging set up', () => {
  it('401: one stderr line naming AQM_API_KEY (never the key); forceFlush returns at once, and delivers once fixed', async () => {
    setup.service().handler = () => errorReply(401, 'Invalid API key');
    const { processor } = processorWithoutLogging();
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    // The sleeps of this clock never end: before, this flush waited for ever (the provider's timeout).
    await processor.forceFlush();
    expect(setup.service().requests).toHaveLength(1);
    expect(processor.stats().queuedTraces).toBe(1);

    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await processor.forceFlush(); // while paused: one probe at once, still 401
    expect(setup.service().requests).toHaveLength(2);

    const lines = stderrLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^@aqm\/otel: The service rejected the API key \(401\)\. Check AQM_API_KEY/);
    expect(lines.join('')).not.toContain(API_KEY);

    setup.service().handler = acceptReply; // the key was fixed
    await processor.forceFlush();
    expect(processor.stats()).toMatchObject({ exportedTraces: 2, queuedTraces: 0 });
  });

  it('404: one stderr line naming AQM_APPLICATION_ID and the id', async () => {
    setup.service().handler = () => errorReply(404, 'Application not found');
    const { processor } = processorWithoutLogging();
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await processor.forceFlush();
    const lines = stderrLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('(404)');
    expect(lines[0]).toContain('AQM_APPLICATION_ID');
  });

  it('goes to the diag logger instead of stderr when the app set one', async () => {
    const logs = new CaptureLogger();
    diag.setLogger(logs, { logLevel: DiagLogLevel.ERROR, suppressOverrideMessage: true });
    setup.service().handler = () => errorReply(401, 'Invalid API key');
    const { processor } = processorWithoutLogging();
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await processor.forceFlush();
    expect(stderrLines()).toEqual([]);
    expect(logs.at('error')).toHaveLength(1);
    expect(logs.at('error')[0]).toContain('(401)');
  });

  it('honours OTEL_LOG_LEVEL=none: nothing on stderr', async () => {
    vi.stubEnv('OTEL_LOG_LEVEL', 'none');
    setup.service().handler = () => errorReply(401, 'Invalid API key');
    const { processor } = processorWithoutLogging();
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await processor.forceFlush();
    expect(stderrLines()).toEqual([]);
  });

  it('AqmSpanExporter.export calls back FAILED as soon as the 401 is known, not at exportTimeoutMs', async () => {
    setup.service().handler = () => errorReply(401, 'Invalid API key');
    const time = new ManualTime(false);
    const exporter = new AqmSpanExporter(aqmOptions(setup.service(), { exportTimeoutMs: 600_000 }), {
      timing: time.timing,
    });
    closers.push(() => exporter.shutdown());
    const first = await new Promise<{ code: number; error?: Error }>((resolve) =>
      exporter.export([fakeLlmSpan(randomTraceId())], resolve),
    );
    expect(first.code).toBe(1);
    expect(first.error?.message).toMatch(/cannot be delivered now \(401 .*\); they stay queued/);
    // Already known: the next export does not wait for anything.
    const second = await new Promise<{ code: number }>((resolve) =>
      exporter.export([fakeLlmSpan(randomTraceId())], resolve),
    );
    expect(second.code).toBe(1);
    expect(exporter.stats().queuedTraces).toBe(2);
  });
});

describe('delivery failing for a minute', () => {
  it('prints one line on stderr with the last error, once per outage', async () => {
    setup.service().handler = () => errorReply(503, 'down for maintenance');
    // Sleeps end at once and move the clock: the retries of five minutes run in a moment.
    const { processor } = processorWithoutLogging(new ManualTime(true));
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await processor.forceFlush();
    expect(processor.stats().droppedTraces.byReason['retries-exhausted']).toBe(2);
    const lines = stderrLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^@aqm\/otel: No trace could be delivered for \d+ s; last error: 503 /);
    expect(lines[0]).toContain('down for maintenance');
    expect(lines[0]).not.toContain(API_KEY);
  });

  it('says nothing on stderr for failures shorter than a minute', async () => {
    let failures = 3;
    setup.service().handler = (request) => (failures-- > 0 ? errorReply(503, 'blip') : acceptReply(request));
    const { processor } = processorWithoutLogging(new ManualTime(true));
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await processor.forceFlush();
    expect(processor.stats().exportedTraces).toBe(1);
    expect(stderrLines()).toEqual([]);
  });
});

describe('a process that ends before a minute of failures', () => {
  it('says at shutdown, once on stderr with the last error, that its traces were not delivered', async () => {
    setup.service().handler = () => errorReply(503, 'down for maintenance');
    const time = new ManualTime(false);
    const processor = new AqmSpanProcessor(
      aqmOptions(setup.service(), { batchDelayMs: 0, shutdownTimeoutMs: 200 }),
      {
        timing: time.timing,
      },
    );
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await time.waitForSleepers(1); // the request failed: now in a backoff wait
    await processor.shutdown();
    expect(processor.stats().droppedTraces.byReason.shutdown).toBe(2);
    const lines = stderrLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^@aqm\/otel: 2 trace\(s\) were not delivered before shutdown: no request succeeded for \d+ s; last error: 503 /,
    );
    expect(lines[0]).toContain('down for maintenance');
    expect(lines[0]).not.toContain(API_KEY);
  });

  it('after the 401 was reported, says at shutdown only how many traces it could not deliver', async () => {
    setup.service().handler = () => errorReply(401, 'Invalid API key');
    const processor = new AqmSpanProcessor(
      aqmOptions(setup.service(), { batchDelayMs: 0, shutdownTimeoutMs: 200 }),
    );
    processor.onEnd(fakeLlmSpan(randomTraceId()));
    await processor.forceFlush();
    expect(stderrLines()).toHaveLength(1);
    expect(stderrLines()[0]).toContain('(401)');
    await processor.shutdown();
    const lines = stderrLines();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^@aqm\/otel: 1 trace\(s\) were not delivered before shutdown \(401 /);
    expect(lines[1]).not.toContain(API_KEY);
  });
});
