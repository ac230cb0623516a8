// What holding a span in an open trace costs on the app's thread: `ValueTrimmer.span()` (cut long
// values, count the heap the span keeps; issue #26) over the same ended spans, warm, rounds
// alternated, medians. The reference, timed in the same rounds, is the least any count could do:
// one walk over the attributes and events' attributes reading each value's type.
//
//   node bench/held-span.mjs                       # the bench's LLM traces and busy traces
//   node bench/held-span.mjs --against <file>      # and another build's held-span.js, e.g. an older one
//
// Busy traces are those of test/http/otel/fixtures/busy-trace.mjs (17-20 spans of small attributes,
// events, links, a prompt partly in non-Latin text).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ValueTrimmer } from '../packages/otel/dist/assembly/held-span.js';
import { startBusyTrace } from '../test/http/otel/fixtures/busy-trace.mjs';
import { readFlags } from './lib/args.mjs';
import { machine } from './lib/measure.mjs';
import { endTrace } from './lib/workload.mjs';

const USAGE = `usage: node bench/held-span.mjs [flags]   (each flag also as BENCH_<NAME>)
  --rounds N        rounds, each contender once per round (41)
  --against FILE    another build of dist/assembly/held-span.js to time alongside ('')`;
const flags = readFlags({ rounds: 41, against: '' }, USAGE);
const MAX_VALUE_CHARS = 32_768; // the default
/** Passes over the spans per sample: enough CPU time (tens of ms) for the clock's microseconds. */
const PASSES = 10;

function spansOf(make, count) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('bench-held-span');
  for (let i = 0; i < count; i += 1) make(tracer, i);
  return exporter.getFinishedSpans();
}

function walk(attributes) {
  let seen = 0;
  if (attributes === undefined) return seen;
  for (const key of Object.keys(attributes)) if (typeof attributes[key] === 'string') seen += 1;
  return seen;
}

const contenders = {
  reference: {
    span: (span) => ({
      bytes: walk(span.attributes) + span.events.reduce((n, e) => n + walk(e.attributes), 1),
    }),
  },
  'held-span': new ValueTrimmer(MAX_VALUE_CHARS),
};
if (flags.against !== '') {
  const other = await import(pathToFileURL(resolve(flags.against)).href);
  contenders.against = new other.ValueTrimmer(MAX_VALUE_CHARS);
}
const names = Object.keys(contenders);
let sink = 0;
function timed(trimmer, spans) {
  // CPU time, as bench/floor.mjs: on a shared machine wall time also counts other processes' turns.
  const before = process.cpuUsage();
  for (let pass = 0; pass < PASSES; pass += 1) for (const span of spans) sink += trimmer.span(span).bytes;
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / (PASSES * spans.length);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const info = machine();
console.log(`${info.cores} cores (${info.model}), Node ${info.node}; ${flags.rounds} rounds`);
console.log('\n| spans | contender | ns per span (median) | ÷ reference |');
console.log('| --- | --- | ---: | ---: |');
for (const [label, spans] of [
  ['bench LLM traces', spansOf((tracer, i) => endTrace(tracer, i), 2000)],
  ['busy traces', spansOf((tracer, i) => startBusyTrace(tracer, i).end(), 200)],
]) {
  for (let pass = 0; pass < 3; pass += 1) for (const name of names) timed(contenders[name], spans);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < flags.rounds; round += 1) {
    for (let k = 0; k < names.length; k += 1) {
      const name = names[(round + k) % names.length];
      samples[name].push(timed(contenders[name], spans));
    }
  }
  const reference = median(samples.reference);
  for (const name of names) {
    const ns = median(samples[name]);
    console.log(
      `| ${label} (${spans.length}) | ${name} | ${ns.toFixed(0)} | ${(ns / reference).toFixed(2)} |`,
    );
  }
}
if (sink === 0) console.log('(nothing counted)');
