// Memory-under-outage scenario (parent side): the sink answers 503 to everything for `outageSeconds`
// while the child produces `traces` traces spread over that window; then the sink is back and the
// child flushes. Reports peak RSS (and its growth over the warmed-up baseline), drops by reason, and
// the traces the sink received after recovery (distinct trace ids: a trace sent twice counts once).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChild } from '../lib/children.mjs';
import { MiB, mib } from '../lib/measure.mjs';
import { startSink } from '../lib/sink.mjs';

const CHILD = fileURLToPath(new URL('../children/outage.mjs', import.meta.url));
/** Longest the flush after recovery may take: the retry backoff is capped at 30 s, plus the drain. */
const RECOVERY_DEADLINE_MS = 120_000;

async function runVariant(variant, options, log) {
  const apiKey = `bench-${randomUUID()}`;
  const sink = await startSink({ kind: variant.startsWith('ours') ? 'aqm' : 'otlp', apiKey });
  // ours-disk: a fresh folder per run, on the machine's temp disk.
  const persistDir = variant === 'ours-disk' ? await mkdtemp(join(tmpdir(), 'aqm-bench-spill-')) : undefined;
  const outageMs = options.outageSeconds * 1000;
  let sinkUpTimer;
  let goAt = 0;
  try {
    const { result } = await runChild(CHILD, {
      config: {
        variant,
        sinkUrl: sink.url,
        traces: options.outageTraces,
        outageMs,
        chunk: options.chunk,
        warmup: options.warmup,
        recoveryDeadlineMs: RECOVERY_DEADLINE_MS,
        deadlineMs: outageMs + RECOVERY_DEADLINE_MS + 60_000,
        // The trace bound raised so that the byte bound is the one that holds the queue.
        aqm: {
          maxQueueTraces: options.outageTraces,
          maxQueueBytes: options.maxQueueMib * MiB,
          // The folder sized for the whole outage (~560 MiB of records here; the default is 256 MiB).
          ...(persistDir === undefined ? {} : { persistDir, maxDiskBytes: 1024 * MiB }),
          ...options.aqmExtra,
        },
      },
      env: { AQM_API_KEY: apiKey, AQM_APPLICATION_ID: randomUUID() },
      execArgv: ['--expose-gc'],
      deadlineMs: outageMs + RECOVERY_DEADLINE_MS + 65_000,
      onMessage(message, child) {
        if (message.type === 'warmed') {
          sink.reset();
          sink.setMode('503');
          goAt = performance.now();
          log(
            `  ${variant}: sink down for ${options.outageSeconds} s, producing ${options.outageTraces} traces`,
          );
          child.send({ type: 'go' });
        } else if (message.type === 'produced') {
          // Up once the outage has lasted its full length (production may have ended a little earlier).
          const left = Math.max(0, goAt + outageMs - performance.now());
          sinkUpTimer = setTimeout(() => {
            sink.setMode('up');
            log(`  ${variant}: sink up after ${((performance.now() - goAt) / 1000).toFixed(1)} s`);
            child.send({ type: 'sink-up' });
          }, left);
        }
      },
    });
    const received = sink.snapshot(2);
    const dropped = result.statsAfterRecovery?.droppedTraces;
    const diskAtEnd = result.statsAfterProduction?.disk;
    const run = {
      variant,
      traces: result.traces,
      maxQueueBytes: options.maxQueueMib * MiB,
      baselineRss: result.baselineRss,
      peakRss: result.peakRss,
      growthRss: result.peakRss - result.baselineRss,
      peakDuringOutage: result.peakDuringOutage,
      settledAfterProduction: result.settledAfterProduction,
      produceMs: result.produceMs,
      recoveryMs: result.recoveryMs,
      flushed: result.flushed,
      flushError: result.flushError,
      delivered: received.completeTraces,
      duplicates: received.duplicates,
      refusedRequests: received.refused,
      // Ours counts its drops; the OTLP pipeline does not expose them, so they are what never arrived.
      droppedTotal: dropped?.total ?? result.traces - received.completeTraces,
      droppedByReason: dropped?.byReason,
      queuedBytesAtEndOfOutage: result.statsAfterProduction?.queuedBytes,
      queuedTracesAtEndOfOutage: result.statsAfterProduction?.queuedTraces,
      retries: result.statsAfterRecovery?.retries,
      cpuOutageUs: result.outageFigures.cpuUs,
      loopP99OutageMs: result.outageFigures.loopP99Ms,
      loopMaxOutageMs: result.outageFigures.loopMaxMs,
      cpuRecoveryUs: result.recoveryFigures.cpuUs,
      diskDrained: result.diskDrained,
      diskTracesAtEndOfOutage: diskAtEnd?.traces,
      diskBytesAtEndOfOutage: diskAtEnd?.bytes,
      diskFilesAtEndOfOutage: diskAtEnd?.files,
      replayedTraces: result.statsAfterRecovery?.disk?.replayedTraces,
    };
    log(
      `  ${variant}: peak RSS ${mib(run.peakRss)} (baseline ${mib(run.baselineRss)}, growth ${mib(run.growthRss)}, ` +
        `peak during the outage ${mib(run.peakDuringOutage)}), ` +
        `delivered after recovery ${run.delivered}, dropped ${run.droppedTotal}` +
        (run.droppedByReason ? ` ${JSON.stringify(run.droppedByReason)}` : '') +
        `, recovery ${(run.recoveryMs / 1000).toFixed(1)} s` +
        `, CPU in the outage ${(run.cpuOutageUs / 1e6).toFixed(2)} s, loop p99 ${run.loopP99OutageMs.toFixed(1)} ms` +
        (diskAtEnd
          ? `, on disk ${diskAtEnd.traces} traces ${mib(diskAtEnd.bytes)} in ${diskAtEnd.files} files`
          : '') +
        (run.flushError
          ? ` (forceFlush() rejected: ${run.flushError})`
          : run.flushed
            ? ''
            : ' (flush timed out)'),
    );
    return run;
  } finally {
    clearTimeout(sinkUpTimer);
    await sink.close();
    if (persistDir !== undefined) await rm(persistDir, { recursive: true, force: true });
  }
}

/**
 * @param {{ outageSeconds: number, outageTraces: number, maxQueueMib: number, chunk: number,
 *   warmup: number, outageVariants: string[] }} options
 */
export async function outageScenario(options, log = console.log) {
  const runs = [];
  for (const variant of options.outageVariants) runs.push(await runVariant(variant, options, log));
  return { options, runs };
}
