// Issue 29's cold start: what a fresh process pays to load @aqm/otel against @langfuse/otel, ESM
// and CJS, up to the import, the first span ended and the first trace delivered (children/cold-start.*).
// Every measurement is a fresh `node` process; each round runs every variant once, the order
// rotating, so that the machine's load falls on both alike; the ratio is taken within each round.
//
//   node bench/cold-start.mjs                     # 15 rounds, writes its section of bench/RESULTS.md
//   node bench/cold-start.mjs --rounds 30 --results none --skip-auto
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readFlags } from './lib/args.mjs';
import { machine, median } from './lib/measure.mjs';
import { coldStartSection, withColdStartSection } from './lib/report-cold-start.mjs';
import { startSink } from './lib/sink.mjs';

const usage = `node bench/cold-start.mjs [--rounds N] [--skip-auto] [--results PATH|none]
  --rounds N        rounds of every variant, each in a fresh process (default 15), after one unmeasured round
  --skip-auto       do not time import('@aqm/auto/register') until ready
  --results PATH    where to write the section (default bench/RESULTS.md; none: print only)`;
const flags = readFlags({ rounds: 15, 'skip-auto': false, results: '' }, usage);
const resultsPath = flags.results || fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const run = promisify(execFile);

const aqmSink = await startSink({ kind: 'aqm' });
const otlpSink = await startSink({ kind: 'otlp' });
const variants = [
  { name: 'aqm ESM', file: 'cold-start.mjs', arg: 'aqm', sink: aqmSink },
  { name: 'langfuse ESM', file: 'cold-start.mjs', arg: 'langfuse', sink: otlpSink },
  { name: 'aqm CJS', file: 'cold-start.cjs', arg: 'aqm', sink: aqmSink },
  { name: 'langfuse CJS', file: 'cold-start.cjs', arg: 'langfuse', sink: otlpSink },
  ...(!flags['skip-auto'] ? [{ name: 'auto ESM', file: 'cold-start.mjs', arg: 'auto', sink: aqmSink }] : []),
];

async function once(variant) {
  const child = fileURLToPath(new URL(`./children/${variant.file}`, import.meta.url));
  const env = {
    ...process.env,
    BENCH_SINK_URL: variant.sink.url,
    AQM_API_KEY: 'bench-key',
    AQM_BASE_URL: variant.sink.url,
    AQM_APPLICATION_ID: '00000000-0000-4000-8000-000000000001',
  };
  const { stdout } = await run(process.execPath, [child, variant.arg], { env, encoding: 'utf8' });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

const info = machine();
const command = `node bench/cold-start.mjs ${process.argv.slice(2).join(' ')}`.trim();
console.log(`${info.cores} cores (${info.model}), Node ${info.node}; ${command}`);
/** variant name → one figures object per round */
const samples = Object.fromEntries(variants.map((v) => [v.name, []]));
for (let round = 0; round <= flags.rounds; round += 1) {
  // Round 0 fills the file-system cache and is not counted.
  const order = variants.map((_, i) => variants[(i + round) % variants.length]);
  const line = [];
  for (const variant of order) {
    const figures = await once(variant);
    if (round > 0) samples[variant.name].push(figures);
    line.push(`${variant.name} ${figures.imported.toFixed(0)}`);
  }
  if (round > 0) console.log(`round ${round}: ${line.join(', ')} (import ms)`);
}
const delivered = `${aqmSink.snapshot().distinctTraces} AQM traces, ${otlpSink.snapshot().spans} OTLP spans for ${2 * (flags.rounds + 1)} runs each`;
await aqmSink.close();
await otlpSink.close();

const quartiles = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1) + 0.5))];
  return { median: median(sorted), p25: at(0.25), p75: at(0.75) };
};
const figures = {};
for (const [name, list] of Object.entries(samples)) {
  figures[name] = {};
  for (const stage of Object.keys(list[0] ?? {})) figures[name][stage] = quartiles(list.map((f) => f[stage]));
}
const ratios = {};
for (const format of ['ESM', 'CJS']) {
  for (const stage of ['imported', 'importCpu', 'spanEnded', 'delivered']) {
    const ours = samples[`aqm ${format}`];
    const theirs = samples[`langfuse ${format}`];
    ratios[`${format} ${stage}`] = quartiles(ours.map((f, i) => f[stage] / theirs[i][stage]));
  }
}
const section = coldStartSection(
  { rounds: flags.rounds, figures, ratios, delivered },
  { machine: info, command, date: new Date().toISOString() },
);
console.log(`\n${section}`);
if (resultsPath !== 'none') {
  writeFileSync(
    resultsPath,
    withColdStartSection(existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '', section),
  );
  console.log(`\nwrote the cold-start section of ${resultsPath}`);
}
