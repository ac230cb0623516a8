// Throughput child: one variant, alone in this process. Warms up the provider it then measures (in
// the window's mode and pace), then ends `traces` traces as fast as it can, `chunk` per event-loop
// turn (the burst), or, with `rate`, at that many per second (the steady rate); then awaits
// provider.forceFlush(). Measured
// from the first trace until forceFlush() resolves: CPU of this process, wall time, event-loop delay,
// peak RSS, and the wall time spent inside the app's span calls. The sink's counts are read by the parent.
//
// Config (BENCH_CONFIG): { variant, sinkUrl, traces, chunk, warmup, aqm, rate?, profileFile? }. With
// `profileFile`, the measured window (and only it: no start-up, no warm-up) is CPU-profiled through
// the inspector, as `node --cpu-prof` would, and written there. Run with --expose-gc.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { childConfig, finish, nextMessage, send, watchdog } from '../lib/children.mjs';
import { nextTurn, rssSampler, sleep, startWindow } from '../lib/measure.mjs';
import { loadVariant, makeVariant } from '../lib/variants.mjs';
import { endTrace } from '../lib/workload.mjs';

const config = childConfig();
watchdog(config.deadlineMs, `throughput child (${config.variant})`);

/**
 * Wall time spent inside the app's own calls (starting and ending its spans, `endTrace`), summed:
 * what a processor's synchronous `onEnd()` adds to the app's call path shows here. Timed per chunk
 * of traces, not per trace, so the clock costs nothing that matters.
 */
let callMs = 0;

/** Ends `count` traces, `chunk` per turn, letting I/O and timers run between chunks. */
async function produce(tracer, count, chunk) {
  for (let done = 0; done < count; done += chunk) {
    const end = Math.min(count, done + chunk);
    const started = performance.now();
    for (let i = done; i < end; i += 1) endTrace(tracer, i);
    callMs += performance.now() - started;
    await nextTurn();
  }
}

const TICK_MS = 10;

/**
 * Ends `count` traces at `rate` per second: trace i falls due i/rate s after the start. Every TICK_MS
 * it ends all the traces due by now, counted from the elapsed time, so a late tick catches up and the
 * rate does not drift.
 */
async function pace(tracer, count, rate) {
  const started = performance.now();
  let done = 0;
  while (done < count) {
    const elapsed = performance.now() - started;
    const due = Math.min(count, Math.floor((elapsed * rate) / 1000) + 1);
    const callStarted = performance.now();
    for (; done < due; done += 1) endTrace(tracer, done);
    callMs += performance.now() - callStarted;
    if (done < count) await sleep(TICK_MS - ((performance.now() - started) % TICK_MS));
  }
}

// A collection now, before anything is optimised; none between the warm-up and the window: a full
// GC there makes V8 throw away code it optimised during the warm-up (deoptimised for "weak objects")
// and compile it again inside the window (at the steady rate, --trace-opt showed ours compiling ~160
// functions, 0.4 s of compiler threads, inside a 10,000-trace window; the OTLP pipeline ~45).
globalThis.gc?.();

// The provider measured is the one warmed up: an app has one pipeline for its lifetime.
await loadVariant(config.variant);
const variant = makeVariant(config.variant, {
  sinkUrl: config.sinkUrl,
  aqm: config.aqm,
  // otlp-noloss: two spans per trace, all of them held (the warm-up's too, in case it is longer).
  spanQueue: 2 * Math.max(config.traces, config.warmup),
});
const tracer = variant.provider.getTracer('bench');

// Warm-up: the same tracer, at the same pace as the window, so V8 has compiled the paths the window
// takes (a paced run's timers too) before it starts; forceFlush() leaves nothing queued. Its traces
// reach the sink too; the parent resets the sink's counters after it, and its stats are subtracted.
if (config.rate) await pace(tracer, config.warmup, config.rate);
else await produce(tracer, config.warmup, config.chunk);
await variant.provider.forceFlush();
const warmStats = variant.stats();
await send({ type: 'warmed' });
await nextMessage('go');
const baselineRss = process.memoryUsage.rss();

const profiler = config.profileFile ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const rss = rssSampler();
callMs = 0;
const window = startWindow();
const started = performance.now();
if (config.rate) await pace(tracer, config.traces, config.rate);
else await produce(tracer, config.traces, config.chunk);
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
const stats = statsSince(warmStats, variant.stats());
await variant.provider.shutdown();

/** Ours' counters of the window alone: the warm-up's subtracted (numbers, and the drop reasons). */
function statsSince(before, after) {
  if (before === undefined || after === undefined) return after;
  const dropped = { ...after.droppedTraces.byReason };
  for (const [reason, count] of Object.entries(before.droppedTraces.byReason)) {
    dropped[reason] = (dropped[reason] ?? 0) - count;
  }
  return {
    ...after,
    exportedTraces: after.exportedTraces - before.exportedTraces,
    retries: after.retries - before.retries,
    droppedTraces: { total: after.droppedTraces.total - before.droppedTraces.total, byReason: dropped },
  };
}

await finish({
  variant: config.variant,
  // Which build of @aqm/otel this process loaded (bench/compare.mjs checks it measured the tree it meant).
  otelModule: resolved('@aqm/otel'),
  traces: config.traces,
  ...measured,
  produceMs,
  callMs,
  flushError,
  baselineRss,
  peakRss: rss.peak,
  stats,
});

function resolved(specifier) {
  try {
    return import.meta.resolve(specifier);
  } catch {
    return undefined;
  }
}
