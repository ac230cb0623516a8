// The forwarder scenario's section of bench/RESULTS.md. It lives between two markers so that
// `--scenario forwarder` replaces only it, and a full `pnpm bench` (which rewrites the rest) keeps it.
import { f0, f1, mibOf, table } from './markdown.mjs';
import { existingMarkedSection, withMarkedSection } from './results-section.mjs';

export const FORWARDER_START = '<!-- forwarder: written by `node bench/run.mjs --scenario forwarder` -->';
export const FORWARDER_END = '<!-- forwarder: end -->';

/** The section, markers included. */
export function forwarderSection({ options, summary: s, runs }, { machine, command, date }, settings) {
  const rows = [
    ['Offered rate (the app, paced)', `${f0(s.offeredRate)} traces/s`],
    ['All traces delivered, every round', s.allDeliveredEveryRound ? 'yes' : '**no**'],
    ['Sustained: traces delivered / window', `${f0(s.sustainedTracesPerSecond)} traces/s`],
    ['Spans delivered / window', `${f0(s.spansPerSecond)} spans/s`],
    ['Forwarder CPU per trace (user + system)', `${f0(s.cpuUsPerTrace)} µs`],
    [
      'OTLP answer time p50 / p99 / max (exporter export() to callback)',
      `${f1(s.answerP50Ms)} / ${f1(s.answerP99Ms)} / ${f1(s.answerMaxMs)} ms`,
    ],
    ['The app process (SDK + proto exporter) CPU per trace, same machine', `${f0(s.appCpuUsPerTrace)} µs`],
    ['Forwarder peak RSS', mibOf(s.peakRss)],
    ['Forwarder event-loop delay p99', `${f1(s.loopP99Ms)} ms`],
    ['Requests answered 503 (queue full), all rounds', String(s.refusedQueueFull)],
    ['Failed exports at the app, all rounds', String(s.failedExports)],
    ['Last trace produced → last trace at the sink (median)', `${f0(s.tailMs)} ms`],
  ];
  const perRound = runs.map((r, i) => [
    String(i + 1),
    `${r.delivered}/${r.traces}`,
    f0(r.delivered / (r.deliveredAllMs / 1000)),
    f0(r.forwarderCpuUs / r.traces),
    f1(r.load.answerP99Ms),
    mibOf(r.forwarderPeakRss),
  ]);
  const lines = [
    FORWARDER_START,
    '## Forwarder: OTLP/HTTP in, AQM out',
    '',
    `${date.slice(0, 16)} UTC, ${machine.cores} cores (${machine.model}), Node ${machine.node}; \`${command}\`.`,
    '',
    `An app process (NodeTracerProvider, BatchSpanProcessor with batches of 512 spans every 100 ms, the official ` +
      '`@opentelemetry/exporter-trace-otlp-proto`) sends the bench workload (an HTTP span around a GenAI chat span ' +
      `with a 1.5 KB prompt and a 0.7 KB response) at ${f0(options.forwarderRate)} traces/s to one \`aqm-forwarder\` ` +
      'process, which sends prompt/response records to the loopback AQM sink. ' +
      `${options.forwarderTraces} traces per round after ${options.warmup} warm-up traces, ${options.rounds} rounds, medians. ` +
      'The window runs from the first measured trace until the sink holds every one of them, so the ' +
      "forwarder's root grace and batching are inside it. Forwarder settings: " +
      `${Object.keys(settings).length === 0 ? 'its defaults' : `its defaults, except \`${JSON.stringify(settings)}\``}. CPU and RSS are the forwarder process's own; ` +
      'the app and the sink ran on the same machine at the same time. The 1-minute load average (all work on the ' +
      `machine) was ${f1(s.loadAverage[0])} before the ` +
      `rounds and ${f1(s.loadAverage[1])} after them, on ${machine.cores} cores.`,
    '',
    ...table(['figure', 'value'], ['l', 'r'], rows),
    '',
    ...table(
      ['round', 'delivered', 'traces/s', 'CPU µs/trace', 'answer p99 ms', 'peak RSS'],
      ['r', 'r', 'r', 'r', 'r', 'r'],
      perRound,
    ),
    '',
    `Goal: at least 5,000 traces/s per forwarder process with everything delivered, and p99 answer time under 50 ms: ` +
      `${s.allDeliveredEveryRound && s.sustainedTracesPerSecond >= 5000 && s.answerP99Ms < 50 ? '**met**' : '**missed**'} ` +
      `(${f0(s.sustainedTracesPerSecond)} traces/s, all delivered: ${s.allDeliveredEveryRound ? 'yes' : 'no'}, p99 ${f1(s.answerP99Ms)} ms).`,
    '',
    `How to read it: the forwarder used ${f0(s.cpuUsPerTrace)} µs of CPU per trace and the app ${f0(s.appCpuUsPerTrace)} µs; ` +
      `one fully free core would give the forwarder about ${f0(1e6 / s.cpuUsPerTrace)} traces/s by that figure (an ` +
      'estimate from CPU time, not a measured rate). When the delivered rate is below the offered one, the three ' +
      "processes did not get the CPU they needed: the backlog waits in the app's span queue and shows as answer " +
      (s.refusedQueueFull > 0
        ? `time; the forwarder's queue filled ${s.refusedQueueFull} times (503 + Retry-After) and the exporter resent, so ` +
          `nothing was lost (every trace delivered, ${s.failedExports} failed exports).`
        : `time, while nothing is lost (every trace delivered, no 503, ${s.failedExports} failed exports).`) +
      ` The app produced ${f0(s.producedTracesPerSecond)} traces/s; the last trace reached the sink ` +
      `${f0(s.tailMs)} ms after the last was produced, and the forwarder holds each root span for \`rootGraceMs\` ` +
      '(1000 ms by default) so that late spans and log records still join: a tail of about that length means the ' +
      'forwarder kept pace with the offered rate, and the sustained figure is lower by the tail alone.',
    '',
    FORWARDER_END,
  ];
  return lines.join('\n');
}

/** `text` with its forwarder section replaced by `section` (or `section` added before the history). */
export function withForwarderSection(text, section) {
  return withMarkedSection(text, section, FORWARDER_START, FORWARDER_END);
}

/** The forwarder section of an existing RESULTS.md, if any (kept when the other scenarios rewrite it). */
export function existingForwarderSection(text) {
  return existingMarkedSection(text, FORWARDER_START, FORWARDER_END);
}
