// The worker side of bench/lib/worker-processor.mjs (issue 22's probe): rebuilds the spans the
// processor copied and feeds them to @aqm/otel's pipeline, unchanged.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { resolveOptions, TracePipeline } from '@aqm/otel/pipeline';

// BENCH_WORKER_PROFILE=<file>: CPU-profile this thread (warm-up included) until shutdown.
const profileFile = process.env.BENCH_WORKER_PROFILE;
const profiler = profileFile ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}

const pipeline = new TracePipeline(resolveOptions(workerData.options, process.env));

function toSpan(data) {
  const context = data.context;
  return {
    name: data.name,
    kind: data.kind,
    spanContext: () => context,
    parentSpanContext: data.parentSpanContext,
    startTime: data.startTime,
    endTime: data.endTime,
    status: data.status,
    attributes: data.attributes,
    events: data.events,
    resource: { attributes: data.resource },
    instrumentationScope: data.scope,
  };
}

parentPort.on('message', async (message) => {
  if (message.type === 'spans') {
    pipeline.addSpans(message.spans.map(toSpan));
    return;
  }
  if (message.type === 'flush') await pipeline.forceFlush();
  else if (message.type === 'shutdown') {
    await pipeline.shutdown();
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(`${profileFile}.${process.pid}.cpuprofile`, JSON.stringify(profile));
    }
  }
  parentPort.postMessage({ id: message.id, stats: pipeline.stats() });
});
