// Small measuring tools shared by the children and the reports.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { constants, monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';

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
 * CPU time of this process's main thread (the one running the app's JavaScript: its thread id is the
 * process id), in µs: the first field of /proc/self/task/<pid>/schedstat, nanoseconds on the CPU,
 * without the 10 ms granularity of `stat`'s clock ticks. `undefined` where there is no /proc (not Linux).
 * It counts the JavaScript of every callback on the main thread (span calls, timers, I/O callbacks,
 * serialisation) and the GC work done there; not the GC's helper threads, the compiler's, libuv's pool
 * or a worker's.
 */
export function mainThreadCpuUs() {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU (µs) of every thread of this process by thread name (/proc/self/task/<tid>/comm: `node` is the
 * main thread, `node` workers run as `WorkerThread`, V8's GC and compiler helpers as `V8Worker`,
 * libuv's pool as `libuv-worker`), summed per name. Empty where there is no /proc.
 */
export function threadCpuUs() {
  const byName = {};
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const name = readFileSync(`/proc/self/task/${tid}/comm`, 'latin1').trim();
        const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1').split(' ')[0]);
        const key = tid === String(process.pid) ? 'main' : name;
        if (Number.isFinite(ns)) byName[key] = (byName[key] ?? 0) + ns / 1000;
      } catch {
        // a thread that ended meanwhile
      }
    }
  } catch {
    // no /proc
  }
  return byName;
}

/**
 * Measures a window: CPU (user + system, µs) of the process and of its main thread, the event loop's
 * active time (`performance.eventLoopUtilization()`), wall time and event-loop delay (10 ms
 * resolution, as the issue asks). Call `end()` once.
 */
export function startWindow() {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const elu = performance.eventLoopUtilization();
  const mainCpu = mainThreadCpuUs();
  const threads = threadCpuUs();
  // The collections inside the window: pauses of the main thread (their wall time) by kind. A busy
  // heap shows here and in the GC helpers' CPU (threadCpu), which the load moves less than the total.
  const gc = { minor: 0, major: 0, pauseMs: 0 };
  const count = (entries) => {
    for (const entry of entries) {
      gc.pauseMs += entry.duration;
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.major += 1;
      else if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.minor += 1;
    }
  };
  const observer = new PerformanceObserver((list) => count(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const cpu = process.cpuUsage();
  const started = performance.now();
  return {
    end() {
      const used = process.cpuUsage(cpu);
      count(observer.takeRecords());
      observer.disconnect();
      const mainCpuEnd = mainThreadCpuUs();
      const threadsEnd = threadCpuUs();
      // Threads that started inside the window count from zero.
      const threadCpu = Object.fromEntries(
        Object.entries(threadsEnd).map(([name, us]) => [name, us - (threads[name] ?? 0)]),
      );
      const loop = performance.eventLoopUtilization(elu);
      const wallMs = performance.now() - started;
      histogram.disable();
      return {
        cpuUs: used.user + used.system,
        mainCpuUs: mainCpu === undefined || mainCpuEnd === undefined ? Number.NaN : mainCpuEnd - mainCpu,
        loopActiveMs: loop.active,
        threadCpu,
        wallMs,
        loopP50Ms: histogram.percentile(50) / 1e6,
        loopP99Ms: histogram.percentile(99) / 1e6,
        loopMaxMs: histogram.max / 1e6,
        gc,
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

/** The value at quantile `q` (0..1) of numbers sorted ascending (the nearest rank below); NaN when none. */
export function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
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
