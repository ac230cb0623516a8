// Profile pass: one extra throughput run of each variant with its measured window CPU-profiled (the
// V8 profiler `node --cpu-prof` uses, started and stopped through the inspector so start-up and
// warm-up stay out of it), not counted in the figures: the profiler costs time of its own.
// Summarized for "Where the time goes" in RESULTS.md; the .cpuprofile files open in Chrome DevTools.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarizeProfile } from '../lib/profile.mjs';
import { runOnce } from './throughput.mjs';

export const PROFILE_DIR = fileURLToPath(new URL('../profiles/', import.meta.url));

/**
 * @param {{ traces: number, chunk: number, warmup: number, deadlineMs: number }} options
 * @param {string[]} variants
 */
export async function profileScenario(options, variants, log = console.log) {
  mkdirSync(PROFILE_DIR, { recursive: true });
  const summaries = {};
  for (const variant of variants) {
    const file = join(PROFILE_DIR, `${variant}.cpuprofile`);
    log(`profiling ${variant} (${options.traces} traces) → ${file}`);
    await runOnce(variant, { ...options, profileFile: file }, log);
    summaries[variant] = { file, ...summarizeProfile(file) };
  }
  return summaries;
}
