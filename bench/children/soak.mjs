// Soak child: an AqmSpanProcessor with its default settings (what users get) under steady traffic,
// `rate` traces per second for `minutes`, while the parent toggles the sink's faults. Every
// `reportEveryMs` it sends the parent its counters and memory; at the end it flushes (bounded),
// shuts down and reports the final stats.
//
// Config (BENCH_CONFIG): { sinkUrl, minutes, rate, reportEveryMs, flushDeadlineMs, deadlineMs }.
import { childConfig, finish, send, watchdog } from '../lib/children.mjs';
import { sleep } from '../lib/measure.mjs';
import { makeVariant } from '../lib/variants.mjs';
import { endTrace } from '../lib/workload.mjs';

const config = childConfig();
watchdog(config.deadlineMs, 'soak child');

const TICK_MS = 100;
const variant = makeVariant('ours', { sinkUrl: config.sinkUrl });
const tracer = variant.provider.getTracer('soak');
const durationMs = config.minutes * 60_000;
const perTick = Math.max(1, Math.round((config.rate * TICK_MS) / 1000));
const ticks = Math.ceil(durationMs / TICK_MS);

function sample(produced, elapsedMs) {
  const memory = process.memoryUsage();
  return {
    type: 'sample',
    elapsedMs,
    produced,
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    stats: variant.stats(),
  };
}

await send({ type: 'started' });
const started = performance.now();
let produced = 0;
let nextReport = config.reportEveryMs;
// Bounded by count (`ticks`); each tick is due at its place on the schedule, so a slow tick is caught up.
for (let tick = 0; tick < ticks; tick += 1) {
  const wait = started + tick * TICK_MS - performance.now();
  if (wait > 0) await sleep(wait);
  for (let i = 0; i < perTick; i += 1) endTrace(tracer, produced++);
  const elapsedMs = performance.now() - started;
  if (elapsedMs >= nextReport) {
    nextReport += config.reportEveryMs;
    await send(sample(produced, elapsedMs));
  }
}

const flushStarted = performance.now();
let deadline;
const flushed = await Promise.race([
  variant.provider.forceFlush().then(() => true),
  new Promise((resolve) => {
    deadline = setTimeout(() => resolve(false), config.flushDeadlineMs);
  }),
]);
clearTimeout(deadline);
const flushMs = performance.now() - flushStarted;
const last = sample(produced, performance.now() - started);
await variant.provider.shutdown();
await finish({ ...last, flushed, flushMs, statsAfterShutdown: variant.stats() });
