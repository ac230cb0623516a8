// Load child: an app with the official OTLP/HTTP protobuf exporter
// (@opentelemetry/exporter-trace-otlp-proto), or with `protocol: 'grpc'` the official OTLP/gRPC one
// (@opentelemetry/exporter-trace-otlp-grpc), behind a BatchSpanProcessor, sending the bench's LLM
// traces to the forwarder at a steady rate. Times every export from the exporter's export() call to
// its callback: the OTLP request's answer time as the app's exporter sees it.
//
// Config (BENCH_CONFIG): { url, protocol, rate, traces, warmup, deadlineMs }. After the warm-up it sends
// 'warm' and waits for 'go'.
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { childConfig, finish, nextMessage, send, watchdog } from '../lib/children.mjs';
import { quantile, sleep } from '../lib/measure.mjs';
import { endTrace } from '../lib/workload.mjs';

const config = childConfig();
watchdog(config.deadlineMs, 'forwarder load child');

// forceFlush() sends every queued batch at once; the exporter's default limit of 30 concurrent
// exports would reject (and lose) the rest of a backlog, so it is raised, as in the otlp-noloss variant.
const inner =
  config.protocol === 'grpc'
    ? new (await import('@opentelemetry/exporter-trace-otlp-grpc')).OTLPTraceExporter({
        url: config.url,
        concurrencyLimit: 10_000,
      })
    : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter({
        url: `${config.url}/v1/traces`,
        concurrencyLimit: 10_000,
      });
/** Answer times (ms) of the exports in the measured window. */
let durations = [];
let failedExports = 0;
const exporter = {
  export(spans, callback) {
    const started = performance.now();
    inner.export(spans, (result) => {
      durations.push(performance.now() - started);
      if (result.code !== 0) failedExports += 1;
      callback(result);
    });
  },
  shutdown: () => inner.shutdown(),
  forceFlush: () => inner.forceFlush(),
};
// A queue that holds any backlog (so a slow forwarder shows as latency and backlog, not as spans the
// app's SDK dropped), the default batch of 512 spans, and a short delay so batches go out steadily.
const provider = new NodeTracerProvider({
  spanProcessors: [
    new BatchSpanProcessor(exporter, {
      maxQueueSize: 1_000_000,
      maxExportBatchSize: 512,
      scheduledDelayMillis: 100,
    }),
  ],
});
const tracer = provider.getTracer('bench-forwarder-load');

const TICK_MS = 10;
/** Ends traces `from`..`from + count - 1` at `rate` per second (trace i due i/rate s after the start). */
async function pace(from, count, rate) {
  const started = performance.now();
  let done = 0;
  while (done < count) {
    const due = Math.min(count, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
    for (; done < due; done += 1) endTrace(tracer, from + done);
    if (done < count) await sleep(TICK_MS - ((performance.now() - started) % TICK_MS));
  }
}

/** A flush whose exports failed (the forwarder refused past the exporter's retries): counted, not thrown. */
let failedFlushes = 0;
async function flush() {
  try {
    await provider.forceFlush();
  } catch {
    failedFlushes += 1;
  }
}

await pace(0, config.warmup, config.rate);
await flush();
durations = [];
failedExports = 0;
await send({ type: 'warm' });
await nextMessage('go');
const started = performance.now();
const cpu = process.cpuUsage();
await pace(config.warmup, config.traces, config.rate);
const producedMs = performance.now() - started;
await flush();
const flushedMs = performance.now() - started;
const cpuUsed = process.cpuUsage(cpu);
await provider.shutdown();
const sorted = durations.sort((a, b) => a - b);
const at = (q) => quantile(sorted, q);
await finish({
  produced: config.traces,
  appCpuUs: cpuUsed.user + cpuUsed.system,
  producedMs,
  flushedMs,
  exports: sorted.length,
  failedExports,
  failedFlushes,
  answerP50Ms: at(0.5),
  answerP99Ms: at(0.99),
  answerMaxMs: sorted[sorted.length - 1] ?? Number.NaN,
});
