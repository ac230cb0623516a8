import { context, trace } from '@opentelemetry/api';
import { isTracingSuppressed } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it } from 'vitest';
import { TraceSender } from '../src/export/trace-sender.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import { makeRecord } from './export-helpers/records.js';

const memory = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });

afterEach(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

describe('TraceSender tracing suppression', () => {
  it('sends with tracing suppressed, so an HTTP instrumentation would record no span of our requests', async () => {
    provider.register();
    const tracer = trace.getTracer('test');
    const seen: boolean[] = [];
    const sender = new TraceSender({
      submit: async () => {
        seen.push(isTracingSuppressed(context.active()));
        // What an HTTP instrumentation does for the request: start a span in the active context.
        tracer.startSpan('POST /evaluations').end();
      },
      applicationId: '3f1c2b4e-8a7d-4e2f-9b1a-0c6d5e4f3a2b',
      concurrency: 1,
      maxBatchTraces: 1,
      maxBatchBytes: 1024 * 1024,
      batchDelayMs: 0,
      maxQueueTraces: 10,
      maxQueueBytes: 1024 * 1024,
      maxRetryElapsedMs: 0,
      maxValueChars: 1000,
      logger: new CaptureLogger(),
    });
    // Enqueued inside an active span of the app: the request must still not be traced.
    await tracer.startActiveSpan('app work', async (span) => {
      await Promise.all([sender.enqueue(makeRecord()), sender.enqueue(makeRecord())]);
      span.end();
    });
    expect(seen).toEqual([true, true]);
    expect(memory.getFinishedSpans().map((s) => s.name)).toEqual(['app work']);
  });
});
