// The issues' goals, judged from a run's figures. A scenario that did not run judges nothing; a goal
// whose variants did not run says "not judged" (`judged: false`). The steady-rate line is for
// information: it is not one of the issues' goals.
import { MiB } from './measure.mjs';

const LOOP_P99_LIMIT_MS = 20;
const OUTAGE_SLACK_BYTES = 64 * MiB;

export function judgeGoals({ throughput, steady, outage }) {
  const goals = [];
  const ours = throughput?.medians.ours;
  const otlp = throughput?.medians.otlp;
  if (ours && otlp) {
    const oursShares = throughput.runs.ours.map((run) => run.deliveredShare);
    const otlpShares = throughput.runs.otlp.map((run) => run.deliveredShare);
    goals.push({
      goal: '100% delivered where the OTLP exporter drops',
      measured:
        `ours ${(Math.min(...oursShares) * 100).toFixed(1)}% in its worst round; ` +
        `OTLP ${(Math.min(...otlpShares) * 100).toFixed(1)}%..${(Math.max(...otlpShares) * 100).toFixed(1)}%`,
      met: oursShares.every((share) => share === 1),
    });
  }
  if (ours) {
    goals.push({
      goal: `Event-loop delay p99 under ${LOOP_P99_LIMIT_MS} ms at full load`,
      measured: `${ours.loopP99Ms.toFixed(1)} ms (median of the rounds; OTLP ${otlp?.loopP99Ms.toFixed(1) ?? 'n/a'} ms, bare provider ${throughput.medians.bare?.loopP99Ms.toFixed(1) ?? 'n/a'} ms)`,
      met: ours.loopP99Ms < LOOP_P99_LIMIT_MS,
    });
  }
  const oursOutage = outage?.runs.find((run) => run.variant === 'ours');
  if (oursOutage) {
    const limit = oursOutage.maxQueueBytes + OUTAGE_SLACK_BYTES;
    goals.push({
      goal: 'Peak RSS under outage within maxQueueBytes + 64 MB (growth over the warmed-up baseline)',
      measured:
        `growth ${(oursOutage.growthRss / MiB).toFixed(1)} MiB of ${(limit / MiB).toFixed(0)} MiB allowed ` +
        `(peak ${(oursOutage.peakRss / MiB).toFixed(1)} MiB, baseline ${(oursOutage.baselineRss / MiB).toFixed(1)} MiB)`,
      met: oursOutage.growthRss <= limit,
    });
    goals.push({
      goal: 'Under outage: everything held is delivered after recovery, once',
      measured: `${oursOutage.delivered} delivered, ${oursOutage.droppedTotal} dropped (${JSON.stringify(oursOutage.droppedByReason)}), ${oursOutage.duplicates} duplicates`,
      met:
        oursOutage.flushed &&
        oursOutage.duplicates === 0 &&
        oursOutage.delivered + oursOutage.droppedTotal === oursOutage.traces,
    });
  }
  const disk = outage?.runs.find((run) => run.variant === 'ours-disk');
  if (disk) goals.push(...judgeDisk(disk, oursOutage));
  // Last, so the issue's goals keep their places in the table and in the History lines.
  const steadyGoal = steady && judgeSteady(steady);
  if (steadyGoal) goals.push(steadyGoal);
  // Issue 30's goals (they replace issue 22's), after the older goals so their places in the
  // History lines stay put.
  if (throughput) goals.push(...judgeIssue30('burst', throughput));
  if (steady) goals.push(...judgeIssue30(`${steady.options.rate}/s`, steady));
  // The probes, for information, when they ran: the worker thread (bench/lib/worker-processor.mjs)
  // and the least record of the contract (bench/lib/least-processor.mjs): whether any
  // implementation could meet the goals in this harness.
  const probe = (label, scenario, name) =>
    judgeIssue30(`${label}, ${name} (probe)`, scenario, name).map((g) => ({
      ...g,
      informational: true,
    }));
  for (const name of PROBES) {
    if (throughput?.medians[name]) goals.push(...probe('burst', throughput, name));
    if (steady?.medians[name]) goals.push(...probe(`${steady.options.rate}/s`, steady, name));
  }
  return goals;
}

/** Probe variants judged against issue 30's goals for information (see bench/lib/variants.mjs). */
const PROBES = ['ours-worker', 'least', 'least-content-once'];

/** Issue 30: ours at most this much of Langfuse v5's CPU per delivered trace over the bare provider... */
export const TO_LANGFUSE = 0.9;
/** ...and at most this much of the stock pipeline's (`otlp-noloss`). */
export const TO_NOLOSS = 1.3;
/** Event-loop p99 at most this many ms above the stock pipeline's (`otlp-noloss`). */
export const LOOP_OVER_STOCK_MS = 2;

/**
 * Issue 30, in one scenario (`label`): ours' process CPU and main-thread CPU per delivered trace
 * over the bare provider (variant minus bare, divided by the share delivered) at most 0.9x
 * Langfuse v5's and at most 1.3x `otlp-noloss`'s; its event-loop p99 within 2 ms of
 * `otlp-noloss`'s. A variant that did not run leaves a goal "not judged" (`judged: false`). Each
 * line has `issue: 30`, so that bench/issue30.mjs can pick them.
 * `variant` picks which of ours is judged.
 */
function judgeIssue30(label, { medians }, variant = 'ours') {
  const ours = medians[variant];
  const langfuse = medians.langfuse;
  const noloss = medians['otlp-noloss'];
  const bare = medians.bare;
  const absent = (...names) => names.filter((name) => !medians[name]);
  const perDelivered = (key, what) => {
    const goal = `${label}: ${what} per delivered trace over the bare provider at most ${TO_LANGFUSE}x Langfuse v5's and ${TO_NOLOSS}x otlp-noloss's`;
    const missing = absent(variant, 'langfuse', 'otlp-noloss', 'bare');
    if (missing.length > 0) return notJudged(goal, missing);
    const toLangfuse = ours[key] / langfuse[key];
    const toNoloss = ours[key] / noloss[key];
    return {
      goal,
      measured:
        `${variant} ${ours[key].toFixed(1)} µs; Langfuse ${langfuse[key].toFixed(1)} (ratio ${toLangfuse.toFixed(2)}), ` +
        `otlp-noloss ${noloss[key].toFixed(1)} (ratio ${toNoloss.toFixed(2)})`,
      met: toLangfuse <= TO_LANGFUSE && toNoloss <= TO_NOLOSS,
      issue: 30,
    };
  };
  const loopGoal = `${label}: event-loop p99 within ${LOOP_OVER_STOCK_MS} ms of the stock pipeline's (otlp-noloss)`;
  const loopMissing = absent(variant, 'otlp-noloss');
  const loop =
    loopMissing.length > 0
      ? notJudged(loopGoal, loopMissing)
      : {
          goal: loopGoal,
          measured:
            `${variant} ${ours.loopP99Ms.toFixed(1)} ms vs otlp-noloss ${noloss.loopP99Ms.toFixed(1)} ms ` +
            `(${signed(ours.loopP99Ms - noloss.loopP99Ms)} ms; Langfuse ${langfuse?.loopP99Ms.toFixed(1) ?? 'n/a'} ms, ` +
            `bare ${bare?.loopP99Ms.toFixed(1) ?? 'n/a'} ms)`,
          met: ours.loopP99Ms <= noloss.loopP99Ms + LOOP_OVER_STOCK_MS,
          issue: 30,
        };
  return [
    perDelivered('exporterCpuUsPerDelivered', 'process CPU'),
    perDelivered('exporterMainCpuUsPerDelivered', 'main-thread CPU'),
    loop,
  ];
}

/** `+1.5` or `-0.3`: a difference with its sign. */
const signed = (value) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;

/** A goal that could not be judged: a variant it compares did not run. */
function notJudged(goal, missing) {
  return { goal, measured: `not judged: no ${missing.join(', ')} run`, met: false, judged: false, issue: 30 };
}

/**
 * For information (it does not call for a profile): CPU per trace at a rate every variant keeps up
 * with, so that every variant delivers every trace and the CPU pays for the same work. When a variant
 * with an exporter fell short of 100% in any round, the rate was not one it keeps up with: the line
 * says so instead of comparing.
 */
function judgeSteady({ options, runs, medians }) {
  const ours = medians.ours;
  const otlp = medians.otlp;
  if (!ours || !otlp) return undefined;
  const goal = 'CPU per trace at a steady rate every variant keeps up with (ratio <= 1.0)';
  const at = `at ${options.rate} traces/s`;
  const short = Object.entries(runs)
    .filter(([variant]) => variant !== 'bare')
    .map(([variant, list]) => [variant, Math.min(...list.map((run) => run.deliveredShare))])
    .filter(([, worst]) => worst < 1);
  if (short.length > 0) {
    const who = short.map(([variant, worst]) => `${variant} ${(worst * 100).toFixed(1)}%`).join(', ');
    return {
      goal,
      measured: `not compared: not every variant kept up ${at} (delivered in its worst round: ${who}); try a lower --rate`,
      met: false,
      informational: true,
    };
  }
  const ratio = ours.cpuUsPerTrace / otlp.cpuUsPerTrace;
  const noloss = medians['otlp-noloss'];
  const likeForLike = noloss
    ? `; vs OTLP with no loss ${noloss.cpuUsPerTrace.toFixed(1)} µs/trace, ratio ${(ours.cpuUsPerTrace / noloss.cpuUsPerTrace).toFixed(2)}`
    : '';
  return {
    goal,
    measured: `${ours.cpuUsPerTrace.toFixed(1)} vs ${otlp.cpuUsPerTrace.toFixed(1)} µs/trace ${at}, ratio ${ratio.toFixed(2)}${likeForLike}; all delivered 100%`,
    met: ratio <= 1,
    informational: true,
  };
}

/** Event-loop delay p99 during the outage: how far above the variant without disk the spill may be. */
const DISK_LOOP_SLACK_MS = 5;

/** The goals of issue 20: the outage with a persistDir, against the same outage without one. */
function judgeDisk(disk, memoryOnly) {
  const limit = disk.maxQueueBytes + OUTAGE_SLACK_BYTES;
  const goals = [
    {
      goal: 'persistDir: 100% delivered after recovery, 0 duplicates',
      measured:
        `${disk.delivered} of ${disk.traces} delivered, ${disk.duplicates} duplicates, ${disk.droppedTotal} dropped` +
        ` (${disk.replayedTraces ?? 0} replayed from disk; folder ${disk.diskDrained ? 'emptied' : 'not emptied'})`,
      met: disk.delivered === disk.traces && disk.duplicates === 0,
    },
    {
      goal: 'persistDir: peak RSS growth within maxQueueBytes + 64 MB',
      measured: `growth ${(disk.growthRss / MiB).toFixed(1)} MiB of ${(limit / MiB).toFixed(0)} MiB allowed`,
      met: disk.growthRss <= limit,
    },
  ];
  if (memoryOnly) {
    const extraCpuUs = disk.cpuOutageUs - memoryOnly.cpuOutageUs;
    goals.push({
      goal: `persistDir: event-loop p99 during the outage within ${DISK_LOOP_SLACK_MS} ms of the variant without disk`,
      measured: `${disk.loopP99OutageMs.toFixed(1)} ms vs ${memoryOnly.loopP99OutageMs.toFixed(1)} ms`,
      met: disk.loopP99OutageMs <= memoryOnly.loopP99OutageMs + DISK_LOOP_SLACK_MS,
    });
    const spilled = disk.diskTracesAtEndOfOutage ?? 0;
    goals.push({
      goal: 'persistDir: disk bytes per trace and the CPU the spill adds (for information)',
      measured:
        `${spilled ? Math.round(disk.diskBytesAtEndOfOutage / spilled) : 'n/a'} bytes per trace on disk; ` +
        `CPU in the outage ${(disk.cpuOutageUs / 1e6).toFixed(2)} s vs ${(memoryOnly.cpuOutageUs / 1e6).toFixed(2)} s ` +
        `without disk (+${(extraCpuUs / 1e6).toFixed(2)} s, ${spilled ? (extraCpuUs / spilled).toFixed(1) : 'n/a'} µs per trace spilled)`,
      met: true,
      informational: true,
    });
  }
  return goals;
}
