// `pnpm bench`: measures AqmSpanProcessor against BatchSpanProcessor + OTLPTraceExporter on the same
// work in the same run, and writes bench/RESULTS.md. See bench/README.md for what each figure means.
//
//   node bench/run.mjs                                   # everything (a few minutes), writes RESULTS.md
//   node bench/run.mjs --scenario throughput --rounds 3  # just the throughput figures, printed
//   node bench/run.mjs --scenario steady --rate 1000      # the same variants at a steady rate
//   node bench/run.mjs --scenario outage --outage-seconds 10 --outage-traces 20000
//   node bench/run.mjs --scenario forwarder               # Collector model -> aqm-forwarder -> sink
//   node bench/run.mjs --scenario write-ahead --rounds 3  # persistMode 'write-ahead' against memory first
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readFlags } from './lib/args.mjs';
import { judgeGoals } from './lib/goals.mjs';
import { machine } from './lib/measure.mjs';
import { renderResults } from './lib/report.mjs';
import { existingColdStartSection, withColdStartSection } from './lib/report-cold-start.mjs';
import { existingFloorSection, withFloorSection } from './lib/report-floor.mjs';
import { existingForwarderSection, forwarderSection, withForwarderSection } from './lib/report-forwarder.mjs';
import { existingIssue30Section, withIssue30Section } from './lib/report-issue30.mjs';
import { FORWARDER_LOADS, FORWARDER_PROTOCOLS, forwarderScenario } from './scenarios/forwarder.mjs';
import { outageScenario } from './scenarios/outage.mjs';
import { profileScenario } from './scenarios/profile.mjs';
import { steadyScenario } from './scenarios/steady.mjs';
import { throughputScenario } from './scenarios/throughput.mjs';
import {
  existingWriteAheadSection,
  withWriteAheadSection,
  writeAheadScenario,
  writeAheadSection,
} from './scenarios/write-ahead.mjs';

const DEFAULT_RESULTS = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const USAGE = `usage: node bench/run.mjs [flags]   (each flag also as BENCH_<NAME>, e.g. BENCH_TRACES)
  --scenario all|throughput|steady|outage|forwarder|write-ahead  what to run (all: throughput, steady, outage)
  --traces N             traces per throughput run (20000)
  --rate N               traces per second in the steady scenario (1000)
  --steady-traces N      traces per steady run (10000: about 10 s at 1000/s)
  --rounds N             interleaved rounds (5)
  --chunk N              traces ended per event-loop turn (10); the steady runs are paced instead
  --warmup N             warm-up traces before each measured run (5000)
  --variants LIST        throughput and steady variants (ours,otlp,otlp-noloss,langfuse,bare)
  --outage-seconds S     how long the sink is down (60)
  --outage-traces N      traces produced during the outage (100000)
  --max-queue-mib N      ours' maxQueueBytes in the outage, MiB (32)
  --outage-variants LIST (ours,ours-disk,otlp; ours-disk is ours with a persistDir)
  --aqm JSON             extra AqmSpanProcessor options for ours, e.g. '{"maxBatchTraces":100}'
  --profile auto|on|off  profile one extra run per variant; auto: when a CPU or event-loop goal is missed (auto)
  --forwarder-rate N     traces per second the load sends to the forwarder (10000)
  --forwarder-traces N   traces per forwarder round (50000)
  --forwarder-protocols LIST  how the load sends to the forwarder: http (OTLP/HTTP protobuf), grpc (OTLP/gRPC) (http,grpc)
  --forwarder-load LIST  what sends: collector (a Collector model replaying requests made beforehand),
                         sdk (an app with the OTLP SDK and the official exporter) (collector)
  --forwarder-batch N    collector load: traces per OTLP request (256: 512 spans)
  --forwarder-consumers N  collector load: requests in flight at most, like sending_queue.num_consumers (10)
  --forwarder-settings JSON   forwarder options over its defaults, e.g. '{"maxOpenTraces":50000}' ({})
  --forwarder-sink-latency MS  the sink answers each submission after MS, as a service across a network (0)
  --results PATH|none    where to write the results (bench/RESULTS.md with --scenario all, else none)
  --json PATH            also write the run's figures and goals as JSON (bench/issue30.mjs reads them)`;

const flags = readFlags(
  {
    scenario: 'all',
    traces: 20_000,
    rate: 1000,
    'steady-traces': 10_000,
    rounds: 5,
    chunk: 10,
    warmup: 5000,
    variants: 'ours,otlp,otlp-noloss,langfuse,bare',
    'outage-seconds': 60,
    'outage-traces': 100_000,
    'max-queue-mib': 32,
    'outage-variants': 'ours,ours-disk,otlp',
    aqm: '',
    profile: 'auto',
    'forwarder-rate': 10_000, // issue 31's goal: 10,000 traces/s per forwarder process
    'forwarder-traces': 50_000,
    'forwarder-protocols': 'http,grpc',
    'forwarder-load': 'collector',
    'forwarder-batch': 256,
    'forwarder-consumers': 10,
    'forwarder-settings': '{}',
    'forwarder-sink-latency': 0,
    results: '',
    json: '',
  },
  USAGE,
);
if (!['all', 'throughput', 'steady', 'outage', 'forwarder', 'write-ahead'].includes(flags.scenario)) {
  console.error(`--scenario must be all, throughput, steady, outage, forwarder or write-ahead\n${USAGE}`);
  process.exit(2);
}
const list = (text) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
let forwarderSettings = {};
try {
  forwarderSettings = JSON.parse(flags['forwarder-settings']);
} catch {
  console.error(
    `--forwarder-settings must be a JSON object of forwarder options, got ${flags['forwarder-settings']}`,
  );
  process.exit(2);
}
const forwarderProtocols = list(flags['forwarder-protocols']);
if (forwarderProtocols.length === 0 || forwarderProtocols.some((p) => p !== 'http' && p !== 'grpc')) {
  console.error(`--forwarder-protocols must list http and/or grpc, got ${flags['forwarder-protocols']}`);
  process.exit(2);
}
const forwarderLoads = list(flags['forwarder-load']);
if (forwarderLoads.length === 0 || forwarderLoads.some((l) => l !== 'collector' && l !== 'sdk')) {
  console.error(`--forwarder-load must list collector and/or sdk, got ${flags['forwarder-load']}`);
  process.exit(2);
}
let aqmExtra = {};
try {
  aqmExtra = flags.aqm ? JSON.parse(flags.aqm) : {};
} catch {
  console.error(`--aqm must be a JSON object of AqmSpanProcessor options, got ${flags.aqm}`);
  process.exit(2);
}
const options = {
  aqmExtra,
  traces: Math.round(flags.traces),
  // Not `rate`: that would pace the burst too (scenarios/throughput.mjs paces any options with a rate).
  steadyRate: flags.rate,
  steadyTraces: Math.round(flags['steady-traces']),
  rounds: Math.round(flags.rounds),
  chunk: Math.round(flags.chunk),
  warmup: Math.round(flags.warmup),
  variants: list(flags.variants),
  // A run's bound: generous (the slowest variant does ~3,000 traces/s on a busy 2-core machine).
  deadlineMs: 60_000 + flags.traces * 5,
  outageSeconds: flags['outage-seconds'],
  outageTraces: Math.round(flags['outage-traces']),
  maxQueueMib: flags['max-queue-mib'],
  outageVariants: list(flags['outage-variants']),
  forwarderRate: flags['forwarder-rate'],
  forwarderTraces: Math.round(flags['forwarder-traces']),
  forwarderSettings,
  forwarderBatch: Math.round(flags['forwarder-batch']),
  forwarderConsumers: Math.round(flags['forwarder-consumers']),
  forwarderSinkLatencyMs: flags['forwarder-sink-latency'],
};

const started = performance.now();
const info = machine();
const command = `node bench/run.mjs ${process.argv.slice(2).join(' ')}`.trim();
console.log(`${info.cores} cores (${info.model}), Node ${info.node}; ${command}`);

// The forwarder scenario stands apart: its own figures, its own section of RESULTS.md.
if (flags.scenario === 'forwarder') {
  const results = [];
  for (const load of forwarderLoads) {
    for (const protocol of forwarderProtocols) {
      console.log(
        `\n== forwarder over ${FORWARDER_PROTOCOLS[protocol]}, fed by ${FORWARDER_LOADS[load]}` +
          (load === 'collector'
            ? `, requests of ${options.forwarderBatch} traces, ${options.forwarderConsumers} consumers`
            : '') +
          `: ${options.forwarderRate} traces/s ==`,
      );
      const result = await forwarderScenario({
        ...options,
        forwarderProtocol: protocol,
        forwarderLoad: load,
      });
      for (const [key, value] of Object.entries(result.summary)) console.log(`${key}: ${value}`);
      results.push(result);
    }
  }
  const section = forwarderSection(results, { machine: info, command, date: new Date().toISOString() });
  const path = flags.results || DEFAULT_RESULTS;
  if (path !== 'none') {
    writeFileSync(path, withForwarderSection(existsSync(path) ? readFileSync(path, 'utf8') : '', section));
    console.log(`\nwrote the forwarder section of ${path}`);
  }
  process.exit(0);
}

// The write-ahead scenario too: its own section of RESULTS.md.
if (flags.scenario === 'write-ahead') {
  console.log('\n== write-ahead against memory first ==');
  const result = await writeAheadScenario(options);
  const section = writeAheadSection(result, { machine: info, command, date: new Date().toISOString() });
  const path = flags.results || DEFAULT_RESULTS;
  if (path !== 'none') {
    writeFileSync(path, withWriteAheadSection(existsSync(path) ? readFileSync(path, 'utf8') : '', section));
    console.log(`\nwrote the write-ahead section of ${path}`);
  }
  process.exit(0);
}

const run = { machine: info, command, date: new Date().toISOString() };
const wants = (scenario) => flags.scenario === 'all' || flags.scenario === scenario;
const wantsThroughput = wants('throughput');
if (wantsThroughput) {
  console.log('\n== throughput ==');
  run.throughput = await throughputScenario(options);
}
if (wants('steady')) {
  console.log(`\n== steady rate: ${options.steadyRate} traces/s ==`);
  run.steady = await steadyScenario(options);
}
if (wants('outage')) {
  console.log('\n== memory under outage ==');
  run.outage = await outageScenario(options);
}
run.goals = judgeGoals(run);
// A CPU or event-loop goal missed (issue 30's, burst or steady, among them) calls for a profile of
// the burst; the informational goals (the steady rate) and those not judged do not.
const cpuOrLoopMissed = run.goals.some(
  (g) => !g.met && g.judged !== false && !g.informational && /CPU|event-loop/i.test(g.goal),
);
if (wantsThroughput && (flags.profile === 'on' || (flags.profile === 'auto' && cpuOrLoopMissed))) {
  console.log('\n== profile ==');
  const profiled = options.variants.filter((v) => v !== 'bare');
  run.profiles = await profileScenario(options, profiled);
}
run.wallSeconds = (performance.now() - started) / 1000;
run.notes = [
  `The machine has ${info.cores} cores and other work ran on it at the same time, so single runs are noisy; ` +
    'the variants run interleaved in the same conditions, and the medians and ratios are the figures to read.',
];

console.log('\n== goals ==');
for (const goal of run.goals) {
  const verdict = (
    goal.judged === false ? 'not judged' : goal.met ? 'met' : goal.informational ? 'missed' : 'MISSED'
  ).padEnd(10);
  console.log(`${verdict} ${goal.goal}: ${goal.measured}`);
}
if (run.profiles) {
  for (const [variant, summary] of Object.entries(run.profiles)) {
    console.log(`\n${variant}: top self time`);
    for (const fn of summary.functions.slice(0, 12)) {
      console.log(`  ${(fn.share * 100).toFixed(1).padStart(5)}%  ${fn.name}  ${fn.where}  (${fn.pkg})`);
    }
  }
}

if (flags.json) {
  writeFileSync(flags.json, `${JSON.stringify(run, null, 2)}\n`);
  console.log(`\nwrote ${flags.json}`);
}

const resultsPath = flags.results || (flags.scenario === 'all' ? DEFAULT_RESULTS : 'none');
if (resultsPath !== 'none') {
  const previous = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '';
  const forwarder = existingForwarderSection(previous);
  const writeAhead = existingWriteAheadSection(previous);
  let text = withHistory(renderResults(run), resultsPath, run);
  if (forwarder !== undefined) text = withForwarderSection(text, forwarder);
  if (writeAhead !== undefined) text = withWriteAheadSection(text, writeAhead);
  const coldStart = existingColdStartSection(previous);
  if (coldStart !== undefined) text = withColdStartSection(text, coldStart);
  // The sections other commands write (bench/floor.mjs, bench/issue30.mjs) are kept too.
  const floor = existingFloorSection(previous);
  if (floor !== undefined) text = withFloorSection(text, floor);
  const issue30 = existingIssue30Section(previous);
  if (issue30 !== undefined) text = withIssue30Section(text, issue30);
  writeFileSync(resultsPath, text);
  console.log(`\nwrote ${resultsPath}`);
}

/** Keeps the history of earlier runs (before/after a fix) at the end of the file, newest last. */
function withHistory(text, path, { goals }) {
  const MARK = '<!-- history: one line per run, kept by run.mjs -->';
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const kept = previous.includes(MARK) ? previous.slice(previous.indexOf(MARK) + MARK.length).trim() : '';
  const mark = (g) => (g.judged === false ? '–' : g.met ? '✓' : '✗');
  const headline = goals.map((g) => `${mark(g)} ${g.measured}`).join('; ');
  const line = `- ${run.date.slice(0, 16)} ${gitRevision()} \`${command}\`: ${headline}`;
  return `${text}\n## History\n\n${MARK}\n${kept ? `${kept}\n` : ''}${line}\n`;
}

function gitRevision() {
  const git = (...args) =>
    execFileSync('git', args, {
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    }).trim();
  try {
    const rev = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--', 'packages/otel');
    return dirty ? `${rev}+uncommitted @aqm/otel changes` : rev;
  } catch {
    return 'unknown revision';
  }
}
