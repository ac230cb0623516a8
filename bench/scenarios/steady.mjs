// Steady-rate scenario (parent side): the throughput scenario's variants, rounds, rotation and
// medians, but each child ends its traces at `--rate` per second instead of as fast as it can. In the
// burst the OTLP pipeline with its defaults drops spans (its 2,048-span queue overflows), so its CPU
// per trace pays for less work; at a rate every variant keeps up with, every variant delivers every
// trace, and the CPU per trace compares the work each does for the same delivered traces.
import { throughputScenario } from './throughput.mjs';

/**
 * @param {{ steadyTraces: number, steadyRate: number, rounds: number, chunk: number, warmup: number,
 *   variants: string[] }} options the warm-up is paced too, so the window starts on code compiled
 *   for it.
 */
export function steadyScenario(options, log = console.log) {
  const traces = options.steadyTraces;
  const rate = options.steadyRate;
  return throughputScenario(
    {
      ...options,
      traces,
      rate,
      // A run's bound: the schedules of the warm-up and the window, plus an allowance for the flush.
      deadlineMs: 60_000 + ((options.warmup + traces) / rate) * 1000 + traces * 5,
    },
    log,
  );
}
