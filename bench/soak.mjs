// `pnpm soak` (not in CI): steady traffic through an AqmSpanProcessor with its default settings for
// 10 minutes while the sink's faults toggle every 30 s (up, 503, up, connection reset, up, slow...).
// Prints a line every 10 s, then judges whether RSS levelled off: the highest RSS of the last third
// of the run may not exceed the highest of the middle third by more than the slack. Exits 1 if it
// did not level off or a trace went unaccounted for.
//
//   node bench/soak.mjs                       # 10 minutes
//   node bench/soak.mjs --minutes 2 --rate 200
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { readFlags } from './lib/args.mjs';
import { runChild } from './lib/children.mjs';
import { MiB, machine, mib } from './lib/measure.mjs';
import { startSink } from './lib/sink.mjs';

const CHILD = fileURLToPath(new URL('./children/soak.mjs', import.meta.url));
/** The fault cycle, one step per `--toggle-seconds`: every other step the sink is healthy. */
const FAULT_CYCLE = ['up', '503', 'up', 'reset', 'up', 'slow'];
const FLUSH_DEADLINE_MS = 90_000;
const USAGE = `usage: node bench/soak.mjs [flags]   (each flag also as BENCH_<NAME>)
  --minutes M          how long the traffic lasts (10)
  --rate N             traces per second (200)
  --toggle-seconds S   how often the sink's fault changes (30)
  --report-seconds S   how often a line is printed (10)
  --slack-mib N        allowed RSS growth of the last third over the middle third, at least (16)`;

const flags = readFlags(
  { minutes: 10, rate: 200, 'toggle-seconds': 30, 'report-seconds': 10, 'slack-mib': 16 },
  USAGE,
);
const info = machine();
console.log(
  `soak: ${flags.minutes} min at ${flags.rate} traces/s, sink faults toggling every ${flags['toggle-seconds']} s ` +
    `(${FAULT_CYCLE.join(' → ')}); ${info.cores} cores, Node ${info.node}`,
);

const apiKey = `soak-${randomUUID()}`;
const sink = await startSink({ kind: 'aqm', apiKey });
const samples = [];
let toggler;
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(0).padStart(4);

function startFaultCycle() {
  let step = 0;
  toggler = setInterval(() => {
    step += 1;
    sink.setMode(FAULT_CYCLE[step % FAULT_CYCLE.length]);
    console.log(`${seconds()} s  sink → ${sink.mode}`);
  }, flags['toggle-seconds'] * 1000);
  // The traffic ends after `minutes`; from then on the sink stays up so the final flush can deliver.
  setTimeout(() => {
    clearInterval(toggler);
    sink.setMode('up');
    console.log(`${seconds()} s  traffic over, sink up for the final flush`);
  }, flags.minutes * 60_000).unref();
}

function line(s) {
  const d = s.stats.droppedTraces;
  const reasons = Object.entries(d.byReason)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  return (
    `${seconds()} s  produced ${s.produced}  delivered ${sink.snapshot().distinctTraces}  ` +
    `dropped ${d.total}${reasons ? ` (${reasons})` : ''}  queued ${s.stats.queuedTraces} ` +
    `(${mib(s.stats.queuedBytes)})  RSS ${mib(s.rss)}  heapUsed ${mib(s.heapUsed)}  [sink ${sink.mode}]`
  );
}

let final;
try {
  ({ result: final } = await runChild(CHILD, {
    config: {
      sinkUrl: sink.url,
      minutes: flags.minutes,
      rate: flags.rate,
      reportEveryMs: flags['report-seconds'] * 1000,
      flushDeadlineMs: FLUSH_DEADLINE_MS,
      deadlineMs: flags.minutes * 60_000 + FLUSH_DEADLINE_MS + 30_000,
    },
    env: { AQM_API_KEY: apiKey, AQM_APPLICATION_ID: randomUUID() },
    deadlineMs: flags.minutes * 60_000 + FLUSH_DEADLINE_MS + 40_000,
    onMessage(message) {
      if (message.type === 'started') startFaultCycle();
      if (message.type !== 'sample') return;
      samples.push(message);
      console.log(line(message));
    },
  }));
} finally {
  clearInterval(toggler);
  await sink.close().catch(() => {});
}

// Accounting: every produced trace was delivered or dropped (and counted), none twice.
const received = sink.snapshot();
const stats = final.statsAfterShutdown;
const accounted = stats.exportedTraces + stats.droppedTraces.total === final.produced;
console.log(
  `\nend: produced ${final.produced}, delivered ${received.distinctTraces} (exportedTraces ${stats.exportedTraces}), ` +
    `dropped ${stats.droppedTraces.total} ${JSON.stringify(stats.droppedTraces.byReason)}, ` +
    `duplicates at the sink ${received.duplicates}, retries ${stats.retries}; final flush ` +
    `${final.flushed ? `took ${(final.flushMs / 1000).toFixed(1)} s` : 'did not finish in time'}`,
);

// Levelling off: compare the highest RSS of the last third with the highest of the middle third.
const durationMs = flags.minutes * 60_000;
const maxIn = (from, to) =>
  Math.max(...samples.filter((s) => s.elapsedMs >= from && s.elapsedMs < to).map((s) => s.rss));
const middle = maxIn(durationMs / 3, (2 * durationMs) / 3);
const last = maxIn((2 * durationMs) / 3, Number.POSITIVE_INFINITY);
const slack = Math.max(flags['slack-mib'] * MiB, 0.1 * middle);
const levelled = Number.isFinite(middle) && Number.isFinite(last) && last <= middle + slack;
console.log(
  `RSS: highest in the middle third ${mib(middle)}, in the last third ${mib(last)} (slack ${mib(slack)}): ` +
    `${levelled ? 'levelled off' : 'STILL GROWING'}`,
);
if (!accounted) console.log('ACCOUNTING: delivered + dropped differs from produced');
if (received.distinctTraces !== stats.exportedTraces) {
  console.log(
    `ACCOUNTING: the sink saw ${received.distinctTraces} traces, exportedTraces says ${stats.exportedTraces}`,
  );
}
process.exitCode = levelled && accounted && received.distinctTraces === stats.exportedTraces ? 0 : 1;
