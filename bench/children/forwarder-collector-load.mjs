// Load child: a model of the OpenTelemetry Collector in front of the forwarder (its `loadbalancing`
// exporter sending OTLP to each forwarder pod), cheap enough that the forwarder gets the machine. The
// bench's traces are made and serialized before anything is timed (lib/otlp-requests.mjs): requests of
// `batch` traces, as the Collector's batching sends them. They go out at `rate` traces/s (a request is
// due when its last trace is), by at most `consumers` senders at once, like the Collector's
// sending_queue.num_consumers: due requests wait their turn in order, and that wait is part of their
// answer time, as in the Collector's queue. A refusal the Collector retries (HTTP 429/502/503/504,
// gRPC UNAVAILABLE/RESOURCE_EXHAUSTED, a broken connection) is sent again after the delay it asks
// for (Retry-After, google.rpc.RetryInfo), else after a backoff from 50 ms doubling up to 5 s, for at
// most 60 s from its first send; the consumer waits meanwhile, as the Collector's retry does.
//
// Config (BENCH_CONFIG): { url, protocol, rate, traces, warmup, batch, consumers, deadlineMs }. After
// the warm-up it sends 'warm' and waits for 'go'.
import { childConfig, finish, nextMessage, send, watchdog } from '../lib/children.mjs';
import { quantile, sleep } from '../lib/measure.mjs';
import { traceRequests } from '../lib/otlp-requests.mjs';
import { grpcSender, httpSender } from '../lib/otlp-senders.mjs';

const config = childConfig();
watchdog(config.deadlineMs, 'forwarder collector load child');

const RETRY_FOR_MS = 60_000;
const BACKOFF_FIRST_MS = 50;
const BACKOFF_MAX_MS = 5_000;

// Warm-up and measured traces are distinct (their indexes differ), in requests of their own.
const made = performance.now();
const warmRequests = traceRequests(0, config.warmup, config.batch);
const requests = traceRequests(config.warmup, config.traces, config.batch);
const bytes = [...warmRequests, ...requests].reduce((n, r) => n + r.body.length, 0);
console.log(
  `collector load: ${warmRequests.length + requests.length} requests of up to ${config.batch} traces ` +
    `(${(bytes / 2 ** 20).toFixed(0)} MiB of protobuf) made in ${((performance.now() - made) / 1000).toFixed(1)} s, ` +
    'before the warm-up',
);

const sender = config.protocol === 'grpc' ? grpcSender(config.url) : httpSender(config.url, config.consumers);

function newStats() {
  return {
    answers: [],
    attempts: [],
    retries: 0,
    refusals: {},
    failures: {},
    /** The first answer's text per code refused or failed: the forwarder says why. */
    messages: {},
    failedRequests: 0,
    failedTraces: 0,
    rejectedSpans: 0,
    producedMs: 0,
  };
}

const count = (counts, code) => {
  counts[code] = (counts[code] ?? 0) + 1;
};

/** Sends one request until it is taken, refused for good, or its 60 s of retries are spent. */
async function deliver(request, queuedAt, stats) {
  const firstSent = performance.now();
  let backoff = BACKOFF_FIRST_MS;
  for (;;) {
    const sent = performance.now();
    const attempt = await sender.attempt(request.body);
    stats.attempts.push(performance.now() - sent);
    if (attempt.outcome === 'ok') {
      stats.rejectedSpans += attempt.rejectedSpans;
      if (attempt.rejectedSpans > 0) count(stats.refusals, `partial_success: ${attempt.message}`);
      break;
    }
    count(attempt.outcome === 'retry' ? stats.refusals : stats.failures, attempt.code);
    stats.messages[attempt.code] ??= attempt.message;
    if (attempt.outcome === 'retry') {
      const delay = attempt.delayMs ?? backoff;
      backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
      if (performance.now() + delay - firstSent <= RETRY_FOR_MS) {
        stats.retries += 1;
        await sleep(delay);
        continue;
      }
    }
    stats.failedRequests += 1;
    stats.failedTraces += request.traces;
    break;
  }
  stats.answers.push(performance.now() - queuedAt);
}

/** Sends `list` at `rate` traces/s by at most `consumers` at once; resolves when all are answered. */
function replay(list, stats) {
  // Request k is due when its last trace is: trace i is due i/rate s after the start, as in pace().
  const dueMs = [];
  let tracesBefore = 0;
  for (const request of list) {
    tracesBefore += request.traces;
    dueMs.push(((tracesBefore - 1) * 1000) / config.rate);
  }
  const started = performance.now();
  const waiting = [];
  let next = 0;
  let inFlight = 0;
  let answered = 0;
  return new Promise((resolve) => {
    const take = () => {
      while (inFlight < config.consumers && waiting.length > 0) {
        const { request, queuedAt } = waiting.shift();
        inFlight += 1;
        void deliver(request, queuedAt, stats).then(() => {
          inFlight -= 1;
          answered += 1;
          if (answered === list.length) resolve(stats);
          else take();
        });
      }
    };
    const due = () => {
      const now = performance.now();
      while (next < list.length && dueMs[next] <= now - started) {
        waiting.push({ request: list[next], queuedAt: now });
        next += 1;
      }
      take();
      if (next < list.length) setTimeout(due, Math.max(0, dueMs[next] - (performance.now() - started)));
      else stats.producedMs = performance.now() - started;
    };
    if (list.length === 0) resolve(stats);
    else due();
  });
}

const sorted = (values) => values.sort((a, b) => a - b);

await replay(warmRequests, newStats());
await send({ type: 'warm' });
await nextMessage('go');
const started = performance.now();
const cpu = process.cpuUsage();
const stats = await replay(requests, newStats());
const flushedMs = performance.now() - started;
const cpuUsed = process.cpuUsage(cpu);
sender.close();
const answers = sorted(stats.answers);
const attempts = sorted(stats.attempts);
await finish({
  produced: config.traces,
  appCpuUs: cpuUsed.user + cpuUsed.system,
  producedMs: stats.producedMs,
  flushedMs,
  exports: requests.length,
  failedExports: stats.failedRequests,
  failedTraces: stats.failedTraces,
  failedFlushes: 0,
  retries: stats.retries,
  refusals: stats.refusals,
  failures: stats.failures,
  messages: stats.messages,
  rejectedSpans: stats.rejectedSpans,
  attempts: attempts.length,
  answerP50Ms: quantile(answers, 0.5),
  answerP99Ms: quantile(answers, 0.99),
  answerMaxMs: answers[answers.length - 1] ?? Number.NaN,
  attemptP50Ms: quantile(attempts, 0.5),
  attemptP99Ms: quantile(attempts, 0.99),
  attemptMaxMs: attempts[attempts.length - 1] ?? Number.NaN,
});
