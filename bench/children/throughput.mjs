// Throughput child: one variant, alone in this process. Warms up (same code paths, a throwaway
// provider), then ends `traces` traces as fast as it can, `chunk` per event-loop turn, and awaits
// provider.forceFlush(). Measured from the first trace until forceFlush() resolves: CPU of this
// process, wall time, event-loop delay, peak RSS. The sink's counts are read by the parent.
//
// Config (BENCH_CONFIG): { variant, sinkUrl, traces, chunk, warmup, aqm, profileFile? }. With
// `profileFile`, the measured window (and only it: no start-up, no warm-up) is CPU-profiled through
// the inspector, as `node --cpu-prof` would, and written there. Run with --expose-gc.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { childConfig, finish, nextMessage, send, watchdog } from '../lib/children.mjs';
import { nextTurn, rssSampler, startWindow } from '../lib/measure.mjs';
import { makeVariant } from '../lib/variants.mjs';
import { endTrace } from '../lib/workload.mjs';

const config = childConfig();
watchdog(config.deadlineMs, `throughput child (${config.variant})`);

/** Ends `count` traces, `chunk` per turn, letting I/O and timers run between chunks. */
async function produce(tracer, count, chunk) {
  for (let done = 0; done < count; done += chunk) {
    const end = Math.min(count, done + chunk);
    for (let i = done; i < end; i += 1) endTrace(tracer, i);
    await nextTurn();
  }
}

// Warm-up: compiles the hot paths and opens the modules, so the figures are the steady state an app
// in production sees. Its traces reach the sink too; the parent resets the sink's counters after it.
{
  const warm = makeVariant(config.variant, {
    sinkUrl: config.sinkUrl,
    aqm: config.aqm,
    spanQueue: 2 * config.warmup,
  });
  await produce(warm.provider.getTracer('warm-up'), config.warmup, config.chunk);
  await warm.provider.forceFlush();
  await warm.provider.shutdown();
}
globalThis.gc?.();
await send({ type: 'warmed' });
await nextMessage('go');
globalThis.gc?.();
const baselineRss = process.memoryUsage.rss();

const variant = makeVariant(config.variant, {
  sinkUrl: config.sinkUrl,
  aqm: config.aqm,
  // otlp-noloss: two spans per trace, all of them held.
  spanQueue: 2 * config.traces,
});
const tracer = variant.provider.getTracer('bench');
const profiler = config.profileFile ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const rss = rssSampler();
const window = startWindow();
const started = performance.now();
await produce(tracer, config.traces, config.chunk);
const produceMs = performance.now() - started;
// The OTLP pipeline's forceFlush() may reject (e.g. "Concurrent export limit reached"); what it lost
// shows in the share delivered, and the error is reported.
const flushError = await variant.provider.forceFlush().then(
  () => undefined,
  (error) => String(error?.message ?? error),
);
const measured = window.end();
rss.stop();
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(config.profileFile, JSON.stringify(profile));
  profiler.disconnect();
}
const stats = variant.stats();
await variant.provider.shutdown();

await finish({
  variant: config.variant,
  traces: config.traces,
  ...measured,
  produceMs,
  flushError,
  baselineRss,
  peakRss: rss.peak,
  stats,
});
