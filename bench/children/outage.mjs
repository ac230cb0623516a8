// Outage child: one variant, alone in this process. After a warm-up (sink up), the parent takes the
// sink down and says 'go'; this child then produces `traces` traces spread evenly over `outageMs`,
// reports, and waits for the parent's 'sink-up'; then it flushes (bounded by `recoveryDeadlineMs`) and
// reports what is left. RSS is sampled throughout; the sink counts what was delivered.
//
// Config (BENCH_CONFIG): { variant, sinkUrl, traces, outageMs, chunk, warmup, aqm, recoveryDeadlineMs,
// deadlineMs }. Run with --expose-gc.
import { childConfig, finish, nextMessage, send, watchdog } from '../lib/children.mjs';
import { nextTurn, rssSampler, sleep, startWindow } from '../lib/measure.mjs';
import { makeVariant } from '../lib/variants.mjs';
import { endTrace } from '../lib/workload.mjs';

const config = childConfig();
watchdog(config.deadlineMs, `outage child (${config.variant})`);

function settledRss() {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage.rss();
}

// Warm-up against the sink while it is up: loads and compiles the same code, so the baseline holds
// everything but queued traces.
{
  const warm = makeVariant(config.variant, { sinkUrl: config.sinkUrl, aqm: config.aqm });
  const tracer = warm.provider.getTracer('warm-up');
  for (let done = 0; done < config.warmup; done += config.chunk) {
    for (let i = done; i < Math.min(config.warmup, done + config.chunk); i += 1) endTrace(tracer, i);
    await nextTurn();
  }
  await warm.provider.forceFlush();
  await warm.provider.shutdown();
}
await nextTurn();
const baselineRss = settledRss();
await send({ type: 'warmed' });
await nextMessage('go');

// The sink is down from here on.
const variant = makeVariant(config.variant, { sinkUrl: config.sinkUrl, aqm: config.aqm });
const tracer = variant.provider.getTracer('outage');
const rss = rssSampler();
// CPU and event-loop delay during the outage: what the spill to disk costs the app, against `ours`.
const outageWindow = startWindow();
const started = performance.now();
const chunks = Math.ceil(config.traces / config.chunk);
for (let k = 0; k < chunks; k += 1) {
  // Chunk k is due at k/chunks of the outage: a steady rate, catching up if the app fell behind.
  const wait = started + (k * config.outageMs) / chunks - performance.now();
  if (wait > 0) await sleep(wait);
  const end = Math.min(config.traces, (k + 1) * config.chunk);
  for (let i = k * config.chunk; i < end; i += 1) endTrace(tracer, i);
  rss.sample();
}
const produceMs = performance.now() - started;
const outageFigures = outageWindow.end();
const statsAfterProduction = variant.stats();
const peakDuringOutage = rss.peak;
const settledAfterProduction = settledRss();
await send({ type: 'produced', produceMs });

await nextMessage('sink-up');
const recoveryStarted = performance.now();
const recoveryWindow = startWindow();
let deadline;
let flushError;
const flushed = await Promise.race([
  // The OTLP pipeline's forceFlush() may reject ("Concurrent export limit reached" after an outage).
  variant.provider.forceFlush().then(
    () => true,
    (error) => {
      flushError = String(error?.message ?? error);
      return false;
    },
  ),
  new Promise((resolve) => {
    deadline = setTimeout(() => resolve(false), config.recoveryDeadlineMs);
  }),
]);
// Cleared, not left to fire: a pending timer would keep this process alive after its work is done.
clearTimeout(deadline);
// With a persistDir, forceFlush() covers what memory held; the disk's backlog replays in the
// background: recovery ends once the folder is empty (within the same deadline).
let diskDrained;
if (variant.stats()?.disk !== undefined) {
  const until = recoveryStarted + config.recoveryDeadlineMs;
  while (performance.now() < until) {
    const stats = variant.stats();
    diskDrained = stats.disk.traces === 0 && stats.queuedTraces === 0;
    if (diskDrained) break;
    await sleep(20);
  }
}
const recoveryFigures = recoveryWindow.end();
const recoveryMs = performance.now() - recoveryStarted;
rss.stop();
const statsAfterRecovery = variant.stats();
await variant.provider.shutdown();

await finish({
  variant: config.variant,
  traces: config.traces,
  baselineRss,
  peakRss: rss.peak,
  peakDuringOutage,
  settledAfterProduction,
  produceMs,
  recoveryMs,
  flushed,
  flushError,
  diskDrained,
  outageFigures,
  recoveryFigures,
  statsAfterProduction,
  statsAfterRecovery,
  statsAfterShutdown: variant.stats(),
});
