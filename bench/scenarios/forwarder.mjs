// Forwarder scenario: one load process sends the bench's LLM traces at `--forwarder-rate` traces/s to
// one @aqm/forwarder process, in front of the loopback AQM sink. The load (`--forwarder-load`) is a
// model of the Collector in front of the forwarder, replaying requests made beforehand
// (`collector`), or an app with the OTLP SDK and the official exporter (`sdk`). Per round: the load
// child warms up (its traces go through the forwarder too), then sends
// `--forwarder-traces` traces; the window runs from the first of them until the sink has received
// every one (so the forwarder's rootGraceMs and batching are inside it). Then the forwarder closes.
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runChild } from '../lib/children.mjs';
import { median, sleep } from '../lib/measure.mjs';
import { startSink } from '../lib/sink.mjs';

const SERVER = fileURLToPath(new URL('../children/forwarder-server.mjs', import.meta.url));
/** The load child of each `--forwarder-load`. */
const LOADS = {
  collector: fileURLToPath(new URL('../children/forwarder-collector-load.mjs', import.meta.url)),
  sdk: fileURLToPath(new URL('../children/forwarder-load.mjs', import.meta.url)),
};

/** How the load sends: `--forwarder-protocols`. */
export const FORWARDER_PROTOCOLS = { http: 'OTLP/HTTP (protobuf)', grpc: 'OTLP/gRPC' };

/** What sends: `--forwarder-load`. */
export const FORWARDER_LOADS = {
  collector: 'a Collector model (requests made beforehand, concurrent consumers, retries)',
  sdk: 'an app with the OTLP SDK and the official exporter',
};

async function waitUntil(condition, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}

async function oneRound({
  rate,
  traces,
  warmup,
  protocol,
  settings,
  load: kind,
  batch,
  consumers,
  sinkLatencyMs,
}) {
  const apiKey = `bench-${randomUUID()}`;
  const sink = await startSink({ kind: 'aqm', apiKey, latencyMs: sinkLatencyMs });
  const deadlineMs = 120_000 + ((warmup + traces) / rate) * 1000 * 3;
  let loadChild;
  let serverChild;
  const window = {};
  let windowStarted = 0;
  let deliveredAllMs = Number.NaN;
  try {
    let resolveReady;
    const ready = new Promise((resolve) => {
      resolveReady = resolve;
    });
    let resolveWindow;
    const windowDone = new Promise((resolve) => {
      resolveWindow = resolve;
    });
    const server = runChild(SERVER, {
      execArgv: process.env.BENCH_FORWARDER_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_FORWARDER_PROF}`]
        : [],
      config: {
        sinkUrl: sink.url,
        apiKey,
        applicationId: randomUUID(),
        // Its defaults, with a gRPC receiver on a free port when the app sends gRPC.
        forwarder: { ...settings, ...(protocol === 'grpc' ? { grpcPort: 0 } : {}) },
        deadlineMs,
      },
      deadlineMs,
      onMessage: (message, child) => {
        serverChild = child;
        if (message.type === 'ready') resolveReady(protocol === 'grpc' ? message.grpcUrl : message.url);
        if (message.type === 'window') resolveWindow(message);
      },
    });
    const url = await ready;
    const load = runChild(LOADS[kind], {
      config: { url, protocol, rate, traces, warmup, batch, consumers, deadlineMs },
      deadlineMs,
      onMessage: (message, child) => {
        loadChild = child;
        if (message.type === 'warm') {
          // The warm-up's traces must all have arrived before the window's count starts.
          void waitUntil(() => sink.snapshot().distinctTraces >= warmup, 30_000).then(() => {
            sink.reset();
            serverChild.send({ type: 'window-start' });
            windowStarted = performance.now();
            child.send({ type: 'go' });
          });
        }
      },
    });
    const loadResult = (await load).result;
    const allArrived = await waitUntil(() => sink.snapshot().distinctTraces >= traces, 60_000);
    deliveredAllMs = performance.now() - windowStarted;
    serverChild.send({ type: 'window-end' });
    Object.assign(window, await windowDone);
    serverChild.send({ type: 'close' });
    const { result: closed, stderr } = await server;
    const arrived = sink.snapshot();
    return {
      rate,
      traces,
      allArrived,
      delivered: arrived.distinctTraces,
      duplicates: arrived.duplicates,
      spansDelivered: arrived.spans,
      load: loadResult,
      deliveredAllMs,
      forwarderCpuUs: window.cpuUs,
      forwarderPeakRss: window.peakRss,
      forwarderLoopP99Ms: window.loopP99Ms,
      refusedQueueFull: closed.stats.refusedQueueFull,
      refusedBodyBytesInFlight: closed.stats.refusedBodyBytesInFlight,
      responses: { ...closed.stats.responses, ...closed.stats.grpcResponses },
      dropped: closed.stats.pipeline.droppedTraces.total,
      receivedSpans: closed.stats.receivedSpans,
      // What the forwarder said (alerts on stderr: refusals, drops), a few distinct lines.
      forwarderSaid: [...new Set(stderr.split('\n').filter(Boolean))].slice(0, 5),
    };
  } finally {
    loadChild?.connected && loadChild.kill();
    await sink.close();
  }
}

/**
 * @param {{ forwarderRate: number, forwarderTraces: number, rounds: number, warmup: number,
 *   forwarderProtocol: 'http' | 'grpc', forwarderLoad: 'collector' | 'sdk', forwarderBatch: number,
 *   forwarderConsumers: number, forwarderSettings: Record<string, unknown>, forwarderSinkLatencyMs?: number }} options
 */
export async function forwarderScenario(options, log = console.log) {
  const runs = [];
  const loadBefore = loadavg()[0];
  for (let round = 1; round <= options.rounds; round += 1) {
    const run = await oneRound({
      rate: options.forwarderRate,
      traces: options.forwarderTraces,
      warmup: options.warmup,
      protocol: options.forwarderProtocol,
      settings: options.forwarderSettings,
      load: options.forwarderLoad,
      batch: options.forwarderBatch,
      consumers: options.forwarderConsumers,
      sinkLatencyMs: options.forwarderSinkLatencyMs ?? 0,
    });
    runs.push(run);
    const seconds = run.deliveredAllMs / 1000;
    log(
      `round ${round}: ${run.delivered}/${run.traces} delivered in ${seconds.toFixed(2)} s ` +
        `(${(run.delivered / seconds).toFixed(0)} traces/s), answer p99 ${run.load.answerP99Ms.toFixed(1)} ms, ` +
        `CPU ${(run.forwarderCpuUs / run.traces).toFixed(0)} µs/trace, RSS ${(run.forwarderPeakRss / 2 ** 20).toFixed(0)} MiB, ` +
        `503s ${run.refusedQueueFull}, failed exports ${run.load.failedExports}` +
        (run.load.retries === undefined
          ? ''
          : `, retries ${run.load.retries}, attempt p99 ${run.load.attemptP99Ms.toFixed(1)} ms, ` +
            `load CPU ${(run.load.appCpuUs / run.traces).toFixed(0)} µs/trace`),
    );
    if (run.load.retries !== undefined) {
      log(
        `  refusals seen by the load: ${JSON.stringify(run.load.refusals)}; failures: ${JSON.stringify(run.load.failures)}` +
          `; answers' texts: ${JSON.stringify(run.load.messages)}`,
      );
    }
    log(`  forwarder answers: ${JSON.stringify(run.responses)}`);
    for (const line of run.forwarderSaid) log(`  forwarder stderr: ${line.slice(0, 300)}`);
  }
  const pick = (f) => median(runs.map(f));
  return {
    options,
    runs,
    summary: {
      offeredRate: options.forwarderRate,
      allDeliveredEveryRound: runs.every((r) => r.allArrived && r.delivered === r.traces && r.dropped === 0),
      sustainedTracesPerSecond: pick((r) => r.delivered / (r.deliveredAllMs / 1000)),
      producedTracesPerSecond: pick((r) => r.traces / (r.load.producedMs / 1000)),
      spansPerSecond: pick((r) => r.spansDelivered / (r.deliveredAllMs / 1000)),
      cpuUsPerTrace: pick((r) => r.forwarderCpuUs / r.traces),
      answerP50Ms: pick((r) => r.load.answerP50Ms),
      answerP99Ms: pick((r) => r.load.answerP99Ms),
      answerMaxMs: Math.max(...runs.map((r) => r.load.answerMaxMs)),
      peakRss: pick((r) => r.forwarderPeakRss),
      loopP99Ms: pick((r) => r.forwarderLoopP99Ms),
      refusedQueueFull: runs.reduce((n, r) => n + r.refusedQueueFull, 0),
      failedExports: runs.reduce((n, r) => n + r.load.failedExports, 0),
      refusedBodyBytesInFlight: runs.reduce((n, r) => n + r.refusedBodyBytesInFlight, 0),
      // Only the Collector model knows its retries and times each attempt.
      ...(options.forwarderLoad === 'collector'
        ? {
            failedTraces: runs.reduce((n, r) => n + r.load.failedTraces, 0),
            retries: runs.reduce((n, r) => n + r.load.retries, 0),
            attemptP50Ms: pick((r) => r.load.attemptP50Ms),
            attemptP99Ms: pick((r) => r.load.attemptP99Ms),
            attemptMaxMs: Math.max(...runs.map((r) => r.load.attemptMaxMs)),
          }
        : {}),
      tailMs: pick((r) => r.deliveredAllMs - r.load.producedMs),
      appCpuUsPerTrace: pick((r) => r.load.appCpuUs / r.traces),
      loadAverage: [loadBefore, loadavg()[0]],
    },
  };
}
