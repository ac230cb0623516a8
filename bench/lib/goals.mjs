// The issue's goals, judged from a run's figures. A scenario that did not run judges nothing.
// The steady-rate line is for information: it is not one of the issue's goals.
import { MiB } from './measure.mjs';

const LOOP_P99_LIMIT_MS = 20;
const OUTAGE_SLACK_BYTES = 64 * MiB;

export function judgeGoals({ throughput, steady, outage }) {
  const goals = [];
  const ours = throughput?.medians.ours;
  const otlp = throughput?.medians.otlp;
  if (ours && otlp) {
    const ratio = ours.cpuUsPerTrace / otlp.cpuUsPerTrace;
    // For information: against the OTLP pipeline that, like ours, delivers every trace.
    const noloss = throughput.medians['otlp-noloss'];
    const likeForLike = noloss
      ? `; vs OTLP with no loss ${noloss.cpuUsPerTrace.toFixed(1)} µs/trace, ratio ${(ours.cpuUsPerTrace / noloss.cpuUsPerTrace).toFixed(2)}`
      : '';
    goals.push({
      goal: 'CPU per trace at or below the OTLP exporter (ratio <= 1.0)',
      measured: `${ours.cpuUsPerTrace.toFixed(1)} vs ${otlp.cpuUsPerTrace.toFixed(1)} µs/trace, ratio ${ratio.toFixed(2)}${likeForLike}`,
      met: ratio <= 1,
    });
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
  // Issue 22's reading, after the older goals so their places in the History lines stay put.
  if (throughput) goals.push(...judgeIssue22('burst', throughput, true));
  if (steady) goals.push(...judgeIssue22(`${steady.options.rate}/s`, steady, false));
  // The worker-thread probe (bench/lib/worker-processor.mjs), for information, when it ran.
  const probe = (label, scenario, burst) =>
    judgeIssue22(`${label}, ours-worker (probe)`, scenario, burst, 'ours-worker').map((g) => ({
      ...g,
      informational: true,
    }));
  if (throughput?.medians['ours-worker']) goals.push(...probe('burst', throughput, true));
  if (steady?.medians['ours-worker']) goals.push(...probe(`${steady.options.rate}/s`, steady, false));
  return goals;
}

const MAIN_THREAD_RATIO = 0.5;
const LOOP_P99_SLACK_MS = 3;

/**
 * Issue 22, per delivered trace: ours' main-thread CPU (minus the bare provider's) at most 0.5x each
 * stock pipeline's, its whole-process CPU at most 1.0x `otlp-noloss`'s, and in the burst an
 * event-loop p99 within 3 ms of the bare provider's. `variant` picks which of ours is judged.
 */
function judgeIssue22(label, { medians }, burst, variant = 'ours') {
  const ours = medians[variant];
  const otlp = medians.otlp;
  const noloss = medians['otlp-noloss'];
  const bare = medians.bare;
  if (!ours || !otlp || !noloss || !bare) return [];
  const mainOf = (m) => m.exporterMainCpuUsPerDelivered;
  const toOtlp = mainOf(ours) / mainOf(otlp);
  const toNoloss = mainOf(ours) / mainOf(noloss);
  const cpuPerDelivered = (m) => m.cpuUsPerTrace / m.deliveredShare;
  const cpuRatio = cpuPerDelivered(ours) / cpuPerDelivered(noloss);
  const goals = [
    {
      goal: `${label}: the exporter's CPU on the app's main thread per delivered trace at most ${MAIN_THREAD_RATIO}x the stock pipelines'`,
      measured:
        `${mainOf(ours).toFixed(1)} µs vs OTLP ${mainOf(otlp).toFixed(1)} (ratio ${toOtlp.toFixed(2)}), ` +
        `OTLP no loss ${mainOf(noloss).toFixed(1)} (ratio ${toNoloss.toFixed(2)}); minus the bare provider's ${bare.mainCpuUsPerTrace.toFixed(1)}`,
      met: toOtlp <= MAIN_THREAD_RATIO && toNoloss <= MAIN_THREAD_RATIO,
    },
    {
      goal: `${label}: whole-process CPU per delivered trace at most 1.0x OTLP no loss`,
      measured: `${cpuPerDelivered(ours).toFixed(1)} vs ${cpuPerDelivered(noloss).toFixed(1)} µs, ratio ${cpuRatio.toFixed(2)}`,
      met: cpuRatio <= 1,
    },
  ];
  if (burst) {
    goals.push({
      goal: `${label}: event-loop p99 within ${LOOP_P99_SLACK_MS} ms of the bare provider`,
      measured: `${ours.loopP99Ms.toFixed(1)} ms vs ${bare.loopP99Ms.toFixed(1)} ms`,
      met: ours.loopP99Ms <= bare.loopP99Ms + LOOP_P99_SLACK_MS,
    });
  }
  return goals;
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
