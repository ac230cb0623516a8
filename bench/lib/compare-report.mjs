// What bench/compare.mjs prints: per round and, at the end, the medians of each side and head/base.
// `runs` maps `<side>:<variant>` (side 'base' or 'head', variant the one compared or 'bare') to the
// figures of its runs (scenarios/throughput.mjs `runOnce`).
import { median } from './measure.mjs';

/**
 * The figures compared, per run: [label, unit, read(run, bare) where bare is the bare median or
 * undefined, short label for the round lines].
 */
const FIGURES = [
  ['process CPU per delivered trace', 'µs', (run) => run.cpuUsPerTrace / run.deliveredShare, 'process'],
  [
    '  over bare',
    'µs',
    (run, bare) =>
      bare === undefined ? Number.NaN : (run.cpuUsPerTrace - bare.cpuUsPerTrace) / run.deliveredShare,
    'over bare',
  ],
  [
    'main-thread CPU per delivered trace',
    'µs',
    (run) => run.mainCpuUsPerTrace / run.deliveredShare,
    'main thread',
  ],
  [
    '  over bare',
    'µs',
    (run, bare) =>
      bare === undefined ? Number.NaN : (run.mainCpuUsPerTrace - bare.mainCpuUsPerTrace) / run.deliveredShare,
    'over bare',
  ],
  ['time in span calls per trace', 'µs', (run) => run.callUsPerTrace, 'span calls'],
  ['event-loop delay p99', 'ms', (run) => run.loopP99Ms, 'loop p99'],
  ['share delivered', '%', (run) => run.deliveredShare * 100, 'delivered'],
  // Where a heap that works harder shows: the CPU of the GC helpers and compiler, and the pauses.
  ['CPU of the other threads per trace', 'µs', (run) => otherThreadsUs(run), 'other threads'],
  ['GC pauses on the main thread per trace', 'µs', (run) => run.gcPauseUsPerTrace, 'GC pauses'],
  ['mark-compacts in the window', 'n', (run) => run.gcMajor, 'mark-compacts'],
];

/** CPU per trace of the process's threads other than the main one (`threadUs:<name>` figures). */
function otherThreadsUs(run) {
  let sum = 0;
  for (const [key, us] of Object.entries(run))
    if (key.startsWith('threadUs:') && key !== 'threadUs:main') sum += us;
  return sum;
}

/**
 * The bare provider's figures both sides subtract, from the bare runs (of either side): their median
 * (`pick` median) or their least (`pick` Math.min); of round `round` only when given.
 */
function bareOf(runs, round, pick = median) {
  const all = [runs['base:bare'] ?? [], runs['head:bare'] ?? []];
  const list = (round === undefined ? all.flat() : all.map((l) => l[round])).filter(Boolean);
  if (list.length === 0) return undefined;
  return {
    cpuUsPerTrace: pick(list.map((run) => run.cpuUsPerTrace)),
    mainCpuUsPerTrace: pick(list.map((run) => run.mainCpuUsPerTrace)),
  };
}

const least = (values) => Math.min(...values);

/**
 * Each figure's median and least over each side's runs. The least too because the load of a shared
 * machine only ever adds CPU time to a run: the least disturbed run is the nearest to the build's own
 * cost, and its ratio scatters less than the medians' when the load comes and goes.
 */
function summarise(runs, variant) {
  const bare = bareOf(runs);
  const bareLeast = bareOf(runs, undefined, least);
  const base = runs[`base:${variant}`];
  const head = runs[`head:${variant}`];
  return FIGURES.map(([label, unit, read, short]) => ({
    label,
    unit,
    short,
    base: median(base.map((run) => read(run, bare))),
    head: median(head.map((run) => read(run, bare))),
    baseLeast: least(base.map((run) => read(run, bareLeast))),
    headLeast: least(head.map((run) => read(run, bareLeast))),
  }));
}

const fmt = (value) => (Number.isFinite(value) ? value.toFixed(1) : '-');
const ratio = (head, base) =>
  Number.isFinite(head / base) && base > 0 ? `${(head / base).toFixed(2)}x` : '-';
const signed = (value, unit) => `${value >= 0 ? '+' : ''}${fmt(value)} ${unit}`;

/** Figure `i`'s head/base in each round (head and base of a round ran side by side, or one after the other). */
function roundRatios(runs, variant, i) {
  const read = FIGURES[i][2];
  return runs[`base:${variant}`].map((base, round) => {
    const head = runs[`head:${variant}`][round];
    const bare = bareOf(runs, round);
    return read(head, bare) / read(base, bare);
  });
}

const variantOf = (runs) =>
  Object.keys(runs)
    .find((key) => key.startsWith('base:') && !key.endsWith(':bare'))
    .slice(5);
const times = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : '-');

/** One line after each round: that round's head/base of the main figures. */
export function roundLine(runs, round) {
  const variant = variantOf(runs);
  const parts = [0, 1, 2, 3, 4, 5].map(
    (i) => `${FIGURES[i][3]} ${times(roundRatios(runs, variant, i)[round])}`,
  );
  return `  round ${round + 1} head/base: ${parts.join(', ')}`;
}

/** The table: each side's median, head/base and head − base; then the same of each side's least. */
export function comparisonLines(runs, variant) {
  const bare = bareOf(runs);
  const cols = (...cells) =>
    cells.map((cell, i) => String(cell).padStart([9, 9, 11, 11, 9, 9, 11][i])).join('');
  const lines = [
    `${''.padEnd(42)}${cols('base', 'head', 'head/base', 'head-base', 'least:b', 'least:h', 'head/base')}`,
  ];
  for (const f of summarise(runs, variant)) {
    const diff = f.unit === '%' || f.unit === 'n' ? '' : signed(f.head - f.base, f.unit);
    lines.push(
      `${`${f.label} (${f.unit})`.padEnd(42)}${cols(
        fmt(f.base),
        fmt(f.head),
        ratio(f.head, f.base),
        diff,
        fmt(f.baseLeast),
        fmt(f.headLeast),
        ratio(f.headLeast, f.baseLeast),
      )}`,
    );
  }
  if (bare !== undefined) {
    const count = (runs['base:bare'] ?? []).length + (runs['head:bare'] ?? []).length;
    lines.push(
      `bare provider (${count} runs, median): process ${fmt(bare.cpuUsPerTrace)} µs, ` +
        `main thread ${fmt(bare.mainCpuUsPerTrace)} µs per trace`,
    );
  }
  const base = runs[`base:${variant}`];
  const head = runs[`head:${variant}`];
  const short = [...base, ...head].filter((run) => run.deliveredShare < 1).length;
  if (short > 0) {
    lines.push(`note: ${short} run(s) delivered less than 100%: the figures per delivered trace differ`);
  }
  return lines;
}

/** The one line to read: head/base of each figure's medians, with what head adds in µs per trace. */
export function lastLine(runs, variant) {
  const withBare = bareOf(runs) !== undefined;
  const [cpu, cpuOver, main, mainOver, calls, loop] = summarise(runs, variant).map((f) => ({
    text: ratio(f.head, f.base),
    diff: signed(f.head - f.base, f.unit),
    least: ratio(f.headLeast, f.baseLeast),
  }));
  const over = (p) => (withBare ? ` (over bare ${p.text}, ${p.diff})` : '');
  const paired = (i) => times(median(roundRatios(runs, variant, i)));
  return (
    `head/base: process ${cpu.text}${over(cpuOver)}, main thread ${main.text}${over(mainOver)}, ` +
    `span calls ${calls.text} (${calls.diff}), loop p99 ${loop.text}; ` +
    `median of the rounds' ratios: process ${paired(0)} (over bare ${paired(1)}), main thread ${paired(2)} ` +
    `(over bare ${paired(3)}); least runs: process ${cpu.least}, main thread ${main.least}`
  );
}
