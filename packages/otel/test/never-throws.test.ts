import { DiagLogLevel, diag } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AqmSpanExporter } from '../src/exporter.js';
import { AqmLogRecordProcessor } from '../src/log-record-processor.js';
import { AqmSpanProcessor } from '../src/processor.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import { FakeService } from './export-helpers/fake-service.js';
import { fakeLlmSpan } from './export-helpers/fake-span.js';
import { aqmOptions, testInternals } from './export-helpers/otel-setup.js';

let service: FakeService;
const closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  service = await FakeService.start();
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await service.close();
  diag.disable();
});

const hostileSpans = [
  null,
  undefined,
  42,
  {},
  {
    spanContext() {
      throw new Error('no context');
    },
  },
  {
    spanContext: () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 }),
    get attributes(): never {
      throw new Error('no attributes');
    },
    get parentSpanContext(): never {
      throw new Error('no parent');
    },
  },
] as never[];

function processor(options = {}) {
  const { internals, logger } = testInternals();
  const created = new AqmSpanProcessor(aqmOptions(service, options), internals);
  closers.push(() => created.shutdown());
  return { processor: created, logger };
}

describe('nothing throws into the app', () => {
  it('AqmSpanProcessor.onStart and onEnd take anything', async () => {
    const { processor: aqm } = processor();
    for (const span of hostileSpans) {
      expect(() => (aqm.onStart as (...args: unknown[]) => void)(span, undefined)).not.toThrow();
      expect(() => aqm.onEnd(span)).not.toThrow();
    }
    await expect(aqm.forceFlush()).resolves.toBeUndefined();
  });

  it('AqmSpanExporter.export calls back for hostile spans and never throws', async () => {
    const { internals } = testInternals();
    const exporter = new AqmSpanExporter(aqmOptions(service), internals);
    closers.push(() => exporter.shutdown());
    const result = await new Promise((resolve) => exporter.export(hostileSpans, resolve));
    expect(result).toMatchObject({ code: expect.any(Number) });
    const notAList = await new Promise((resolve) => exporter.export(null as never, resolve));
    expect(notAList).toMatchObject({ code: 0 });
    expect(() => exporter.export([], null as never)).not.toThrow();
  });

  it('AqmLogRecordProcessor.onEmit takes anything', () => {
    const { processor: aqm } = processor();
    const logs = new AqmLogRecordProcessor(aqm);
    const throwing = {
      get attributes(): never {
        throw new Error('no attributes');
      },
    };
    for (const record of [null, undefined, 1, {}, throwing] as never[]) {
      expect(() => logs.onEmit(record)).not.toThrow();
    }
  });
});

describe('what used to happen silently is said once through diag', () => {
  it('spans past maxSpansPerTrace: one warning, however many traces reach it', async () => {
    const { processor: aqm, logger } = processor({ maxSpansPerTrace: 2 });
    for (const traceId of ['c'.repeat(32), 'd'.repeat(32)]) {
      for (let i = 0; i < 5; i += 1) aqm.onEnd(fakeLlmSpan(traceId, {}, 'f'.repeat(16)));
    }
    const warnings = logger.at('warn').filter((line) => line.includes('maxSpansPerTrace'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('reached maxSpansPerTrace (2)');
    expect(warnings[0]).toContain('later spans are dropped');
  });

  it('gen_ai.input.messages that is not JSON: one warning, the text still sent', async () => {
    const logs = new CaptureLogger();
    diag.setLogger(logs, { logLevel: DiagLogLevel.ALL, suppressOverrideMessage: true });
    const { processor: aqm } = processor({ batchDelayMs: 0 });
    aqm.onEnd(fakeLlmSpan('e'.repeat(32), { 'gen_ai.input.messages': '[not json' }));
    aqm.onEnd(fakeLlmSpan('9'.repeat(32), { 'gen_ai.input.messages': '{"also": not json' }));
    await aqm.forceFlush();
    const warnings = logs.at('warn').filter((line) => line.includes('is not valid JSON'));
    expect(warnings).toEqual([
      '@aqm/otel gen_ai.input.messages is not valid JSON, so it is sent as one plain-text message. The GenAI semantic ' +
        'conventions define it as a JSON array of messages. (Said once.)',
    ]);
    expect(service.acceptedTraces.map((t) => t.prompt)).toEqual(['[not json', '{"also": not json']);
  });
});
