// Small measuring tools shared by the children and the reports.
import { cpus, totalmem } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const MiB = 1024 * 1024;

/**
 * Samples RSS every `everyMs` (unref'd) and on demand; `peak` is the highest seen. Not after every
 * chunk: reading RSS costs a system call, which would show up in the CPU figures.
 */
export function rssSampler(everyMs = 100) {
  let peak = process.memoryUsage.rss();
  const sample = () => {
    const rss = process.memoryUsage.rss();
    if (rss > peak) peak = rss;
    return rss;
  };
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    sample,
    get peak() {
      return peak;
    },
    stop() {
      clearInterval(timer);
      sample();
    },
  };
}

/**
 * Measures a window: CPU (user + system, µs), wall time and event-loop delay (10 ms resolution,
 * as the issue asks). Call `end()` once.
 */
export function startWindow() {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  return {
    end() {
      const used = process.cpuUsage(cpu);
      const wallMs = performance.now() - started;
      histogram.disable();
      return {
        cpuUs: used.user + used.system,
        wallMs,
        loopP50Ms: histogram.percentile(50) / 1e6,
        loopP99Ms: histogram.percentile(99) / 1e6,
        loopMaxMs: histogram.max / 1e6,
      };
    },
  };
}

export const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Median of numbers (the mean of the two middle ones for an even count). */
export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The machine, for RESULTS.md. */
export function machine() {
  const list = cpus();
  return {
    cores: list.length,
    model: list[0]?.model?.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

export const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
