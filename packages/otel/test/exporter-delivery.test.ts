import { context, trace } from '@opentelemetry/api';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { type AqmExportResult, ExportResultCode } from '../src/export/result-code.js';
import { AqmSpanExporter } from '../src/exporter.js';
import { acceptReply, deferred, type Reply } from './export-helpers/fake-service.js';
import { aqmOptions, llmCall, registerProvider, testInternals } from './export-helpers/otel-setup.js';
import { withFakeService } from './export-helpers/service-per-test.js';

const { service, cleanup } = withFakeService();

function createExporter(options: Parameters<typeof aqmOptions>[1] = {}) {
  const { internals, logger } = testInternals();
  const exporter = new AqmSpanExporter(aqmOptions(service(), options), internals);
  cleanup(() => exporter.shutdown());
  return { exporter, logger };
}

/** Finished spans of LLM calls, captured with an in-memory exporter. */
async function captureSpans(calls: Array<[string, string]>): Promise<ReadableSpan[]> {
  const memory = new InMemorySpanExporter();
  const registration = registerProvider(new SimpleSpanProcessor(memory));
  for (const [prompt, response] of calls) await llmCall(prompt, response);
  const spans = memory.getFinishedSpans();
  await registration.unregister();
  return spans;
}

function exportNow(exporter: AqmSpanExporter, spans: ReadableSpan[]) {
  const result = deferred<AqmExportResult>();
  let called = false;
  exporter.export(spans, (r) => {
    called = true;
    result.resolve(r);
  });
  return { result: result.promise, called: () => called };
}

function gateAnswers() {
  const gate = deferred();
  service().handler = async (request): Promise<Reply> => {
    await gate.promise;
    return acceptReply(request);
  };
  return gate;
}

describe('AqmSpanExporter.export', () => {
  it('sends the traces an export() waits for at once, without waiting for batchDelayMs', async () => {
    const { exporter } = createExporter({ batchDelayMs: 60_000 });
    const spans = await captureSpans([['Ping?', 'Pong.']]);
    const { result } = exportNow(exporter, spans);
    // Sent at once: the batch delay would otherwise hold the callback for a minute.
    expect(await result).toEqual({ code: ExportResultCode.SUCCESS });
    expect(service().batchSizes).toEqual([1]);
  });

  it('calls back SUCCESS only after the service accepted the traces of that call', async () => {
    const spans = await captureSpans([
      ['q1', 'a1'],
      ['q2', 'a2'],
    ]);
    const gate = gateAnswers();
    const { exporter } = createExporter();
    const call = exportNow(exporter, spans);
    await service().waitFor(() => service().requests.length === 1);
    expect(call.called()).toBe(false);
    gate.resolve();
    expect(await call.result).toEqual({ code: ExportResultCode.SUCCESS });
    expect(service().acceptedTraces.map((t) => t.prompt)).toEqual(['q1', 'q2']);
  });

  it('calls back FAILED at exportTimeoutMs, keeping the traces queued for later delivery', async () => {
    const spans = await captureSpans([['q', 'a']]);
    const gate = gateAnswers();
    const { exporter } = createExporter({ exportTimeoutMs: 50 });
    const { result } = exportNow(exporter, spans);
    const outcome = await result;
    expect(outcome.code).toBe(ExportResultCode.FAILED);
    expect(outcome.error?.message).toContain(
      '1 of 1 trace(s) not yet accepted by the AQM service after exportTimeoutMs (50 ms)',
    );
    expect(exporter.stats().queuedTraces).toBe(1);
    gate.resolve();
    await exporter.forceFlush();
    expect(exporter.stats()).toMatchObject({ exportedTraces: 1, queuedTraces: 0 });
  });

  it('calls back FAILED naming the count when a trace was dropped', async () => {
    const spans = await captureSpans([
      ['ok', 'a'],
      ['bad', 'b'],
    ]);
    service().handler = (request) => {
      const errors = request.traces.flatMap((t, i) =>
        t.prompt === 'bad' ? [{ path: `traces[${i}].prompt`, message: 'no' }] : [],
      );
      return errors.length > 0
        ? { status: 400, body: { success: false, message: 'invalid', errors } }
        : acceptReply(request);
    };
    const { exporter } = createExporter();
    const outcome = await exportNow(exporter, spans).result;
    expect(outcome.code).toBe(ExportResultCode.FAILED);
    expect(outcome.error?.message).toBe('1 of 2 trace(s) were dropped (see stats().droppedTraces)');
  });

  it('calls back SUCCESS at once when the spans complete no trace', async () => {
    const memory = new InMemorySpanExporter();
    const registration = registerProvider(new SimpleSpanProcessor(memory));
    const tracer = trace.getTracer('test');
    const root = tracer.startSpan('request');
    await context.with(trace.setSpan(context.active(), root), () => llmCall('q', 'a'));
    const spans = memory.getFinishedSpans();
    await registration.unregister();
    const { exporter } = createExporter();
    const call = exportNow(exporter, spans);
    expect(call.called()).toBe(true);
    expect(await call.result).toEqual({ code: ExportResultCode.SUCCESS });
    expect(exporter.stats().openTraces).toBe(1);
    root.end();
  });

  it('reports FAILED at once after shutdown', async () => {
    const spans = await captureSpans([['q', 'a']]);
    const { exporter } = createExporter();
    await exporter.shutdown();
    const call = exportNow(exporter, spans);
    expect(call.called()).toBe(true);
    const outcome = await call.result;
    expect(outcome.code).toBe(ExportResultCode.FAILED);
    expect(outcome.error?.message).toContain('shut down');
    expect(service().requests).toHaveLength(0);
  });
});

describe('AqmSpanExporter behind a BatchSpanProcessor', () => {
  it('makes provider.forceFlush() resolve only once the traces were delivered', async () => {
    const gate = gateAnswers();
    const { exporter } = createExporter();
    const registration = registerProvider(new BatchSpanProcessor(exporter));
    cleanup(() => registration.unregister());
    const traceId = await llmCall('What is AQM?', 'A quality monitor.');
    let flushed = false;
    const flush = registration.provider.forceFlush().then(() => {
      flushed = true;
    });
    await service().waitFor(() => service().requests.length === 1);
    expect(flushed).toBe(false);
    gate.resolve();
    await flush;
    expect(service().accepted.get(traceId)).toBe(1);
  });

  it('the next export() also waits for traces the idle timer completed since the last call', async () => {
    // Only the request carrying the idle-completed trace is held back; any other is answered.
    const gate = deferred();
    let idleTraceId = '';
    service().handler = async (request): Promise<Reply> => {
      if (request.traces.some((t) => t.traceId === idleTraceId)) await gate.promise;
      return acceptReply(request);
    };
    const { exporter } = createExporter({ traceIdleMs: 20 });
    const memory = new InMemorySpanExporter();
    const registration = registerProvider(new SimpleSpanProcessor(memory));
    cleanup(() => registration.unregister());
    // A model call under a request span that never ends: only the idle timer completes its trace.
    const root = trace.getTracer('test').startSpan('request');
    idleTraceId = await context.with(trace.setSpan(context.active(), root), () => llmCall('q1', 'a1'));
    exporter.export(memory.getFinishedSpans(), () => {});
    memory.reset();
    await service().waitFor(() => exporter.stats().openTraces === 0 && service().requests.length === 1);
    // A later export of another trace: delivered at once, but its callback waits for the idle one.
    const laterTraceId = await llmCall('q2', 'a2');
    const later = exportNow(exporter, memory.getFinishedSpans());
    await service().waitFor(() => exporter.stats().exportedTraces === 1);
    expect(later.called()).toBe(false);
    gate.resolve();
    expect((await later.result).code).toBe(ExportResultCode.SUCCESS);
    expect(service().accepted.get(idleTraceId)).toBe(1);
    expect(service().accepted.get(laterTraceId)).toBe(1);
    root.end();
  });

  it('exporter.forceFlush() completes open traces and waits for delivery', async () => {
    const gate = gateAnswers();
    const { exporter } = createExporter();
    const memory = new InMemorySpanExporter();
    const registration = registerProvider(new SimpleSpanProcessor(memory));
    cleanup(() => registration.unregister());
    const root = trace.getTracer('test').startSpan('request');
    await context.with(trace.setSpan(context.active(), root), () => llmCall('q', 'a'));
    exporter.export(memory.getFinishedSpans(), () => {});
    let flushed = false;
    const flush = exporter.forceFlush().then(() => {
      flushed = true;
    });
    await service().waitFor(() => service().requests.length === 1);
    expect(flushed).toBe(false);
    gate.resolve();
    await flush;
    expect(exporter.stats()).toMatchObject({ exportedTraces: 1, openTraces: 0 });
    root.end();
  });
});
