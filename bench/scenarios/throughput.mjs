// Throughput scenario (parent side): the variants run interleaved, one child process each, a fresh
// loopback sink each, for `rounds` rounds; the order rotates every round so no variant always runs
// first (or last) on a machine whose load drifts. Figures are medians over the rounds. With
// `options.rate`, the children end their traces at that rate instead of as fast as they can (the
// steady-rate scenario, scenarios/steady.mjs).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChild } from '../lib/children.mjs';
import { MiB, median } from '../lib/measure.mjs';
import { startSink } from '../lib/sink.mjs';
import { SPANS_SENT } from '../lib/variants.mjs';

const CHILD = fileURLToPath(new URL('../children/throughput.mjs', import.meta.url));

/** The figures of one run, from the child's measures and what its sink received. */
function figures(result, sink) {
  const delivered = sink.completeTraces;
  return {
    cpuUsPerTrace: result.cpuUs / result.traces,
    cpuUsPerDelivered: delivered > 0 ? result.cpuUs / delivered : Number.NaN,
    // The app's main thread alone (schedstat of the thread whose id is the pid): what the exporter
    // costs the app's event loop, beside the whole process's figure.
    mainCpuUsPerTrace: result.mainCpuUs / result.traces,
    // performance.eventLoopUtilization(): time the loop was not idle (waiting on I/O and timers).
    loopActiveUsPerTrace: (result.loopActiveMs * 1000) / result.traces,
    // CPU per trace by thread name (main, WorkerThread, V8Worker, ...): where the process's CPU went.
    ...Object.fromEntries(
      Object.entries(result.threadCpu ?? {}).map(([name, us]) => [`threadUs:${name}`, us / result.traces]),
    ),
    tracesPerSec: result.traces / (result.wallMs / 1000),
    producedPerSec: result.traces / (result.produceMs / 1000),
    // Time inside the app's calls that start and end its spans (a synchronous onEnd() adds to it).
    callUsPerTrace: (result.callMs * 1000) / result.traces,
    wallMs: result.wallMs,
    produceMs: result.produceMs,
    wireBytesPerTrace: delivered > 0 ? sink.wireBytes / delivered : Number.NaN,
    deliveredShare: delivered / result.traces,
    delivered,
    loopP99Ms: result.loopP99Ms,
    // Collections in the window (perf_hooks 'gc' entries): their main-thread pauses per trace, and counts.
    gcPauseUsPerTrace: result.gc ? (result.gc.pauseMs * 1000) / result.traces : Number.NaN,
    gcMajor: result.gc?.major ?? Number.NaN,
    gcMinor: result.gc?.minor ?? Number.NaN,
    loopMaxMs: result.loopMaxMs,
    peakRssMiB: result.peakRss / MiB,
    growthRssMiB: (result.peakRss - result.baselineRss) / MiB,
    requests: sink.ok,
    flushError: result.flushError,
    duplicates: sink.duplicates,
  };
}

/**
 * One child run of `variant` against its own sink. `options.childScript`: the child to fork instead of
 * this tree's `children/throughput.mjs` (bench/compare.mjs forks a copy inside another commit's tree).
 */
export async function runOnce(variant, options, log) {
  const apiKey = `bench-${randomUUID()}`;
  const sink = await startSink({
    kind: variant.startsWith('ours') || variant.startsWith('least') ? 'aqm' : 'otlp',
    apiKey,
  });
  // ours-disk and ours-wal: a fresh persistDir per run, on the machine's temp disk.
  const persistDir =
    variant === 'ours-disk' || variant === 'ours-wal'
      ? await mkdtemp(join(tmpdir(), 'aqm-bench-persist-'))
      : undefined;
  try {
    const { result } = await runChild(options.childScript ?? CHILD, {
      config: {
        variant,
        sinkUrl: sink.url,
        traces: options.traces,
        chunk: options.chunk,
        rate: options.rate,
        warmup: options.warmup,
        deadlineMs: options.deadlineMs,
        profileFile: options.profileFile,
        // Raised so the whole burst fits: the figure is throughput, not the drop policy.
        aqm: {
          maxQueueTraces: options.traces,
          maxQueueBytes: 256 * MiB,
          ...(persistDir === undefined ? {} : { persistDir }),
          ...options.aqmExtra,
        },
      },
      env: { AQM_API_KEY: apiKey, AQM_APPLICATION_ID: randomUUID() },
      execArgv: ['--expose-gc'],
      deadlineMs: options.deadlineMs + 5000,
      onMessage(message, child) {
        if (message.type !== 'warmed') return;
        sink.reset();
        child.send({ type: 'go' });
      },
    });
    const run = figures(result, sink.snapshot(SPANS_SENT[variant] ?? 2));
    run.otelModule = result.otelModule;
    // The burst: traces per second until forceFlush() resolves; at a rate: how fast they were produced.
    const perSec = options.rate
      ? `${run.producedPerSec.toFixed(0).padStart(6)} produced/s`
      : `${run.tracesPerSec.toFixed(0).padStart(6)} traces/s`;
    log(
      `  ${variant.padEnd(11)} ${run.cpuUsPerTrace.toFixed(1).padStart(7)} µs/trace  main ${run.mainCpuUsPerTrace.toFixed(1)} µs  ` +
        `${perSec}  ${(run.deliveredShare * 100).toFixed(1).padStart(5)}% delivered  ` +
        `${run.wireBytesPerTrace.toFixed(0).padStart(5)} B/trace  span calls ${run.callUsPerTrace.toFixed(1)} µs  ` +
        `loop p99 ${run.loopP99Ms.toFixed(1)} ms  ` +
        `peak RSS ${run.peakRssMiB.toFixed(0)} MiB  ${run.requests} requests`,
    );
    log(
      `    by thread, µs/trace: ${Object.entries(run)
        .filter(([key]) => key.startsWith('threadUs:'))
        .map(([key, us]) => `${key.slice(9)} ${us.toFixed(1)}`)
        .join(', ')}`,
    );
    if (result.flushError) log(`    ${variant}: forceFlush() rejected: ${result.flushError}`);
    if (variant.startsWith('ours') && result.stats?.droppedTraces.total > 0) {
      log(`    ours dropped ${JSON.stringify(result.stats.droppedTraces.byReason)}`);
    }
    return run;
  } finally {
    await sink.close();
    if (persistDir !== undefined) await rm(persistDir, { recursive: true, force: true });
  }
}

/**
 * @param {{ traces: number, rounds: number, chunk: number, warmup: number, variants: string[],
 *   deadlineMs: number, rate?: number }} options `rate`: traces per second; without it, a burst.
 */
export async function throughputScenario(options, log = console.log) {
  const runs = Object.fromEntries(options.variants.map((v) => [v, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    const shift = round % options.variants.length;
    const order = [...options.variants.slice(shift), ...options.variants.slice(0, shift)];
    log(`round ${round + 1}/${options.rounds} (${order.join(', ')})`);
    for (const variant of order) runs[variant].push(await runOnce(variant, options, log));
  }
  const medians = {};
  for (const [variant, list] of Object.entries(runs)) {
    medians[variant] = {};
    for (const key of Object.keys(list[0])) {
      if (typeof list[0][key] === 'number') medians[variant][key] = median(list.map((run) => run[key]));
    }
    medians[variant].flushErrors = list.filter((run) => run.flushError).length;
  }
  // The exporter's own CPU: the variant's minus the bare provider's (the app making its spans), for
  // every variant with an exporter (ours and its probes, otlp, otlp-noloss, langfuse).
  const bareCpu = medians.bare?.cpuUsPerTrace;
  const bareMain = medians.bare?.mainCpuUsPerTrace;
  for (const variant of Object.keys(medians).filter((name) => name !== 'bare')) {
    const m = medians[variant];
    // Per produced and per delivered trace (issue 30's reading: over the bare provider, divided by
    // the share delivered).
    if (bareCpu !== undefined) {
      m.exporterCpuUsPerTrace = m.cpuUsPerTrace - bareCpu;
      m.exporterCpuUsPerDelivered = m.exporterCpuUsPerTrace / m.deliveredShare;
    }
    // The same on the main thread: the exporter's cost on the app's event loop.
    if (bareMain !== undefined) {
      m.exporterMainCpuUsPerTrace = m.mainCpuUsPerTrace - bareMain;
      m.exporterMainCpuUsPerDelivered = m.exporterMainCpuUsPerTrace / m.deliveredShare;
    }
  }
  return { options, runs, medians };
}
