// Issue 30: the throughput bench on two commits in one invocation, interleaved, and the ratio head/base,
// so that a regression is found (and bisected) in minutes. Each commit is built once in a detached git
// worktree of its own, cached by its sha outside the repository; the current tree's bench code (a
// fresh copy inside each worktree, so that its imports resolve to that tree's packages) measures both,
// so that only the build differs. See bench/README.md, "Comparing two commits".
//
//   node bench/compare.mjs c95f2ed cf540c3 --rounds 3 --traces 10000
//   node bench/compare.mjs HEAD~1              # against the current checkout (WORKTREE), as built
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCommand } from './lib/args.mjs';
import { comparisonLines, lastLine, roundLine } from './lib/compare-report.mjs';
import { git, missingPackages, otelPackageDir, prepareSide } from './lib/compare-worktree.mjs';
import { machine } from './lib/measure.mjs';
import { runOnce } from './scenarios/throughput.mjs';

const USAGE = `usage: node bench/compare.mjs <base-commit> [<head-commit>|WORKTREE] [flags]
  Runs the throughput bench on two commits, interleaved, and prints head/base per figure.
  A commit is anything git resolves (sha, branch, HEAD~3); WORKTREE (the default head) is the current
  checkout as it is built (build it first after changing packages/). Each flag also as BENCH_<NAME>.
  --rounds N             interleaved rounds (3)
  --traces N             traces per measured run (20000)
  --warmup N             warm-up traces before each measured run (5000)
  --chunk N              traces ended per event-loop turn in the burst (10)
  --scenario throughput|steady   the burst, or a steady rate (throughput)
  --rate N               traces per second with --scenario steady (1000)
  --variant NAME         the pipeline compared: ours, otlp, otlp-noloss, langfuse (ours)
  --bare head|base|both|none   which side's bare provider runs too, for "over bare" (head)
  --cache DIR            where the worktrees are kept, one per commit sha (${join(tmpdir(), 'aqm-bench-compare')})
  --build otel|all       what a new worktree builds: @aqm/otel and its deps, or every package (otel)
  --together             run base and head at the same time (and then the bare providers of both
                         sides), so that the machine's other load falls on both alike: for a shared,
                         noisy machine; the absolute figures are then those of two processes at once
  --json PATH            also write every run's figures there (none)`;

const { flags, positionals } = readCommand(
  {
    rounds: 3,
    traces: 20_000,
    warmup: 5000,
    chunk: 10,
    scenario: 'throughput',
    rate: 1000,
    variant: 'ours',
    bare: 'head',
    cache: join(tmpdir(), 'aqm-bench-compare'),
    build: 'otel',
    together: false,
    json: '',
  },
  USAGE,
);
const usageError = (message) => {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
};
if (positionals.length < 1 || positionals.length > 2) usageError('give one or two commits');
if (!['throughput', 'steady'].includes(flags.scenario)) usageError('--scenario must be throughput or steady');
if (!['head', 'base', 'both', 'none'].includes(flags.bare))
  usageError('--bare must be head, base, both or none');
if (!['otel', 'all'].includes(flags.build)) usageError('--build must be otel or all');
if (flags.variant === 'bare') usageError('--variant bare compares nothing of ours; use --bare both');

const bench = fileURLToPath(new URL('.', import.meta.url));
const repo = git(bench, 'rev-parse', '--show-toplevel');
const log = (line) => console.log(line);
const started = performance.now();
const info = machine();
console.log(
  `${info.cores} cores (${info.model}), Node ${info.node}; node bench/compare.mjs ${process.argv.slice(2).join(' ')}`,
);

const [baseRev, headRev = 'WORKTREE'] = positionals;
const sides = {};
try {
  for (const [name, rev] of [
    ['base', baseRev],
    ['head', headRev],
  ]) {
    sides[name] = prepareSide({ repo, bench, rev, cacheDir: flags.cache, build: flags.build, log });
  }
} catch (error) {
  console.error(`cannot prepare the builds: ${error.message}`);
  process.exit(1);
}
console.log(`base: ${sides.base.label}\n      ${sides.base.dir}`);
console.log(`head: ${sides.head.label}\n      ${sides.head.dir}`);

// The runs of a round: the variant on both sides, and the bare provider on the sides asked for.
const entries = [
  { side: 'base', variant: flags.variant },
  { side: 'head', variant: flags.variant },
];
// With --together, the bare provider of both sides (two bare processes at once, as the measured pair).
const bareSides = flags.bare === 'both' || (flags.together && flags.bare !== 'none') ? ['base', 'head'] : [];
if (bareSides.length === 0 && flags.bare !== 'none') bareSides.push(flags.bare);
for (const side of bareSides) {
  entries.push({ side, variant: 'bare' });
}
for (const { side, variant } of entries) {
  const missing = missingPackages(sides[side].dir, variant);
  if (missing.length > 0) {
    console.error(
      `${side} (${sides[side].label}) cannot run ${variant}: its node_modules lack ${missing.join(', ')}`,
    );
    process.exit(1);
  }
}

const steady = flags.scenario === 'steady';
const traces = Math.round(flags.traces);
const warmup = Math.round(flags.warmup);
const options = {
  traces,
  warmup,
  chunk: Math.round(flags.chunk),
  rate: steady ? flags.rate : undefined,
  aqmExtra: {},
  // A run's bound, as bench/run.mjs and scenarios/steady.mjs set it.
  deadlineMs: 60_000 + traces * 5 + (steady ? ((warmup + traces) / flags.rate) * 1000 : 0),
};
const runs = Object.fromEntries(entries.map((e) => [`${e.side}:${e.variant}`, []]));
const rounds = Math.round(flags.rounds);
for (let round = 0; round < rounds; round += 1) {
  const shift = round % entries.length;
  const order = [...entries.slice(shift), ...entries.slice(0, shift)];
  // --together: the variant of both sides at once, then the bare providers at once (the pairs'
  // order alternating), so that whatever else loads the machine falls on both sides alike.
  const variants = entries.filter((e) => e.variant !== 'bare');
  const bares = entries.filter((e) => e.variant === 'bare');
  const pairs = [variants, bares].filter((group) => group.length > 0);
  const groups = flags.together ? (round % 2 === 0 ? pairs : pairs.reverse()) : order.map((e) => [e]);
  const described = groups.map((g) => g.map((e) => `${e.side} ${e.variant}`).join(' + ')).join(', ');
  console.log(`\nround ${round + 1}/${rounds} (${described})`);
  for (const group of groups) {
    const measured = await Promise.all(group.map((entry) => measure(entry)));
    group.forEach(({ side, variant }, i) => {
      runs[`${side}:${variant}`].push(measured[i]);
    });
  }
  console.log(roundLine(runs, round));
}

/** One run of `variant` by `side`'s build, through the harness copied into its tree. */
async function measure({ side, variant }) {
  const childScript = join(sides[side].harness, 'children/throughput.mjs');
  try {
    const run = await runOnce(variant, { ...options, childScript }, (line) =>
      log(`${side.padEnd(4)} ${line}`),
    );
    checkMeasuredBuild(side, run);
    return run;
  } catch (error) {
    console.error(`${side} ${variant} failed: ${error.message}`);
    process.exit(1);
  }
}

console.log(
  `\n== medians over ${rounds} rounds (${flags.scenario}, ${traces} traces, variant ${flags.variant}) ==`,
);
for (const line of comparisonLines(runs, flags.variant)) console.log(line);
console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
if (flags.json) {
  const described = Object.fromEntries(Object.entries(sides).map(([name, side]) => [name, side.label]));
  writeFileSync(flags.json, `${JSON.stringify({ flags, sides: described, runs }, null, 2)}\n`);
  console.log(`wrote ${flags.json}`);
}
console.log(lastLine(runs, flags.variant));

/** Stops when a child loaded another @aqm/otel than its side's (it would compare a build with itself). */
function checkMeasuredBuild(side, run) {
  if (run.otelModule === undefined) return;
  const loaded = fileURLToPath(run.otelModule);
  const expected = otelPackageDir(sides[side].dir);
  if (!loaded.startsWith(`${expected}/`)) {
    console.error(`${side}: the child loaded ${loaded}, not a file of ${expected}`);
    process.exit(1);
  }
  if (!sides[side].shown) {
    sides[side].shown = true;
    log(`${side.padEnd(4)} measured ${loaded}`);
  }
}
