// The forwarder scenario's section of bench/RESULTS.md. It lives between two markers so that
// `--scenario forwarder` replaces only it, and a full `pnpm bench` (which rewrites the rest) keeps it.
import { f0, f1, mibOf, table } from './markdown.mjs';
import { existingMarkedSection, withMarkedSection } from './results-section.mjs';

export const FORWARDER_START = '<!-- forwarder: written by `node bench/run.mjs --scenario forwarder` -->';
export const FORWARDER_END = '<!-- forwarder: end -->';

/** Issue 31's goal, per protocol: traces/s delivered by one forwarder process, and the answer p99. */
export const FORWARDER_GOAL = { tracesPerSecond: 10_000, answerP99Ms: 50 };

const PROTOCOL_NAMES = { http: 'OTLP/HTTP (protobuf)', grpc: 'OTLP/gRPC' };

/** What each load (`--forwarder-load`) is, for the section's text. */
const LOAD_TEXTS = {
  collector: (o) =>
    'The Collector model (`--forwarder-load collector`) stands for the OpenTelemetry Collector in front of the ' +
    'forwarder (its `loadbalancing` exporter), cheaply, so that the forwarder gets the machine: it ends the ' +
    'traces with the SDK and serializes them with the official `ProtobufTraceSerializer` before the warm-up, in ' +
    `requests of ${o.forwarderBatch ?? 256} traces, then sends them paced (a request is due when its last trace ` +
    `is) by at most ${o.forwarderConsumers ?? 10} requests in flight (\`sending_queue.num_consumers\`), due ` +
    'requests waiting their turn in order; it sends a refused request again after its Retry-After / RetryInfo ' +
    'delay (else a backoff from 50 ms to 5 s), for at most 60 s. Its answer time runs from the moment a request ' +
    "is due to its final answer, so the queue's wait and the retries are in it.",
  sdk: () =>
    'The SDK app (`--forwarder-load sdk`) is a NodeTracerProvider with a BatchSpanProcessor (batches of 512 spans ' +
    'every 100 ms) and the official OTLP exporter of each protocol, which exports one batch at a time; its answer ' +
    "time is the exporter's export() to its callback. The app's exporter resends a refusal over HTTP; the Node gRPC " +
    'exporter does not retry, so a refusal there is a failed export.',
};
const EXPORTERS = {
  http: '@opentelemetry/exporter-trace-otlp-proto',
  grpc: '@opentelemetry/exporter-trace-otlp-grpc',
};

/** Whether one protocol's run met the goal. */
function goalMet(s) {
  return (
    s.allDeliveredEveryRound &&
    s.sustainedTracesPerSecond >= FORWARDER_GOAL.tracesPerSecond &&
    s.answerP99Ms < FORWARDER_GOAL.answerP99Ms
  );
}

/** What the load is, for the part's title. */
const LOAD_TITLES = { collector: 'fed by the Collector model', sdk: 'fed by an SDK app' };

/** The rows that depend on what sent: the answer times, the load's CPU, refusals and failures. */
function loadRows(load, protocol, s) {
  if (load === 'sdk') {
    return [
      [
        'OTLP answer time p50 / p99 / max (exporter export() to callback)',
        `${f1(s.answerP50Ms)} / ${f1(s.answerP99Ms)} / ${f1(s.answerMaxMs)} ms`,
      ],
      [
        `The app process (SDK + ${EXPORTERS[protocol]}) CPU per trace, same machine`,
        `${f0(s.appCpuUsPerTrace)} µs`,
      ],
    ];
  }
  return [
    [
      'OTLP answer time p50 / p99 / max (request due → final answer: queue wait and retries included)',
      `${f1(s.answerP50Ms)} / ${f1(s.answerP99Ms)} / ${f1(s.answerMaxMs)} ms`,
    ],
    [
      'One attempt (one HTTP/gRPC request) p50 / p99 / max',
      `${f1(s.attemptP50Ms)} / ${f1(s.attemptP99Ms)} / ${f1(s.attemptMaxMs)} ms`,
    ],
    ['The load process (Collector model) CPU per trace, same machine', `${f0(s.appCpuUsPerTrace)} µs`],
  ];
}

/** One protocol's part of the section. */
function protocolPart({ options, summary: s, runs }) {
  const protocol = options.forwarderProtocol ?? 'http';
  const load = options.forwarderLoad ?? 'sdk';
  const sender = load === 'sdk' ? 'the app' : 'the load';
  const rows = [
    [`Offered rate (${sender}, paced)`, `${f0(s.offeredRate)} traces/s`],
    ['All traces delivered, every round', s.allDeliveredEveryRound ? 'yes' : '**no**'],
    ['Sustained: traces delivered / window', `${f0(s.sustainedTracesPerSecond)} traces/s`],
    ['Spans delivered / window', `${f0(s.spansPerSecond)} spans/s`],
    ['Forwarder CPU per trace (user + system)', `${f0(s.cpuUsPerTrace)} µs`],
    ...loadRows(load, protocol, s),
    ['Forwarder peak RSS', mibOf(s.peakRss)],
    ['Forwarder event-loop delay p99', `${f1(s.loopP99Ms)} ms`],
    ['Requests answered 503 / UNAVAILABLE (queue full), all rounds', String(s.refusedQueueFull)],
    [
      'Requests refused for bodies in flight (maxBodyBytesInFlight), all rounds',
      String(s.refusedBodyBytesInFlight),
    ],
    ...(load === 'sdk'
      ? [['Failed exports at the app, all rounds', String(s.failedExports)]]
      : [
          [
            'Retries by the load / requests failed for good (their traces), all rounds',
            `${s.retries} / ${s.failedExports} (${s.failedTraces})`,
          ],
        ]),
    ['Last trace produced → last trace at the sink (median)', `${f0(s.tailMs)} ms`],
    [
      'Load average (1 min, the whole machine) before / after the rounds',
      `${f1(s.loadAverage[0])} / ${f1(s.loadAverage[1])}`,
    ],
  ];
  const perRound = runs.map((r, i) => [
    String(i + 1),
    `${r.delivered}/${r.traces}`,
    f0(r.delivered / (r.deliveredAllMs / 1000)),
    f0(r.forwarderCpuUs / r.traces),
    f1(r.load.answerP99Ms),
    mibOf(r.forwarderPeakRss),
  ]);
  return [
    `### Over ${PROTOCOL_NAMES[protocol]}, ${LOAD_TITLES[load]}`,
    '',
    ...table(['figure', 'value'], ['l', 'r'], rows),
    '',
    ...table(
      ['round', 'delivered', 'traces/s', 'CPU µs/trace', 'answer p99 ms', 'peak RSS'],
      ['r', 'r', 'r', 'r', 'r', 'r'],
      perRound,
    ),
    '',
    `Goal (issue 31): at least ${f0(FORWARDER_GOAL.tracesPerSecond)} traces/s delivered by one forwarder process, everything ` +
      `delivered, answer p99 under ${FORWARDER_GOAL.answerP99Ms} ms: ${goalMet(s) ? '**met**' : '**missed**'} ` +
      `(${f0(s.sustainedTracesPerSecond)} traces/s, all delivered: ${s.allDeliveredEveryRound ? 'yes' : 'no'}, p99 ${f1(s.answerP99Ms)} ms). ` +
      `The forwarder used ${f0(s.cpuUsPerTrace)} µs of CPU per trace and ${sender} ${f0(s.appCpuUsPerTrace)} µs: one fully ` +
      `free core would give the forwarder about ${f0(1e6 / s.cpuUsPerTrace)} traces/s by that figure (an estimate from ` +
      'CPU time, not a measured rate).',
    '',
  ];
}

/**
 * The section, markers included: one part per protocol the app sent over.
 * @param {{ options: Record<string, any>, summary: Record<string, any>, runs: any[] }[]} results
 */
export function forwarderSection(results, { machine, command, date }) {
  const { options } = results[0];
  const settings = options.forwarderSettings ?? {};
  const loads = [...new Set(results.map((r) => r.options.forwarderLoad ?? 'sdk'))];
  return [
    FORWARDER_START,
    '## Forwarder: OTLP in, AQM out',
    '',
    `${date.slice(0, 16)} UTC, ${machine.cores} cores (${machine.model}), Node ${machine.node}; \`${command}\`.`,
    '',
    `One load process sends the bench workload (an HTTP span around a GenAI chat span with a 1.5 KB prompt and a 0.7 KB ` +
      `response) at ${f0(options.forwarderRate)} traces/s to one \`aqm-forwarder\` process, which sends ` +
      'prompt/response records to the loopback AQM sink' +
      (options.forwarderSinkLatencyMs > 0
        ? `, which answers each submission after ${options.forwarderSinkLatencyMs} ms (a service across a network). `
        : '. ') +
      loads.map((load) => LOAD_TEXTS[load](options)).join(' ') +
      ' ' +
      `${options.forwarderTraces} traces per round after ${options.warmup} warm-up traces, ${options.rounds} rounds, medians. ` +
      'The window runs from the first measured trace until the sink holds every one of them, so the ' +
      "forwarder's root grace and batching are inside it. Forwarder settings: " +
      `${Object.keys(settings).length === 0 ? 'its defaults' : `its defaults, except \`${JSON.stringify(settings)}\``}` +
      " (with `grpcPort: 0` for gRPC). CPU and RSS are the forwarder process's own; the load process and the sink ran on the " +
      'same machine at the same time. When the delivered rate is below the offered one, the three processes did not ' +
      "get the CPU they needed, or the forwarder's bounds refused (503 / UNAVAILABLE with a retry delay); " +
      'the forwarder holds each root span for `rootGraceMs` (1000 ms by default), so a tail of about that length ' +
      'means it kept pace with the offered rate.',
    '',
    ...results.flatMap(protocolPart),
    FORWARDER_END,
  ].join('\n');
}

/** `text` with its forwarder section replaced by `section` (or `section` added before the history). */
export function withForwarderSection(text, section) {
  return withMarkedSection(text, section, FORWARDER_START, FORWARDER_END);
}

/** The forwarder section of an existing RESULTS.md, if any (kept when the other scenarios rewrite it). */
export function existingForwarderSection(text) {
  return existingMarkedSection(text, FORWARDER_START, FORWARDER_END);
}
