import { resolve } from 'node:path';
import { describeValue, integerOption } from './option-checks.js';

const MIB = 1024 * 1024;

/** The disk options, resolved: `persistDir` absolute, or `undefined` when persistence is off. */
export interface PersistOptions {
  persistDir: string | undefined;
  maxDiskBytes: number;
  /** How `persistDir` is used: `overflow` (memory first, the default) or `write-ahead`. */
  persistMode: PersistMode;
}

/**
 * `overflow`: memory first, the disk takes what memory cannot keep (a kill -9 loses what memory
 * holds). `write-ahead`: every trace is on disk before it counts as accepted, and leaves the disk
 * once delivered (a kill -9 or an OOM kill loses nothing that was accepted).
 */
export type PersistMode = 'overflow' | 'write-ahead';

const PERSIST_MODES: readonly PersistMode[] = ['overflow', 'write-ahead'];

/** `persistMode` in code (checked, throws), else `fromEnv` (`AQM_PERSIST_MODE`, checked by `readEnvKnobs`). */
function persistModeOption(value: unknown, fromEnv: PersistMode | undefined): PersistMode {
  if (value !== undefined) {
    if (!PERSIST_MODES.includes(value as PersistMode)) {
      throw new TypeError(
        `Expected \`persistMode\` to be 'overflow' or 'write-ahead', got ${describeValue(value)}`,
      );
    }
    return value as PersistMode;
  }
  return fromEnv ?? 'overflow';
}

/**
 * `persistDir` (else `AQM_PERSIST_DIR`; off when neither is set, an empty or blank variable
 * counting as unset), `maxDiskBytes` (default 256 MiB) and `persistMode` (else
 * `modeFromEnv`; default `overflow`). A relative folder is taken from the
 * working directory at start-up, so a later `chdir` does not move it.
 */
export function resolvePersistOptions(
  raw: { persistDir?: unknown; maxDiskBytes?: unknown; persistMode?: unknown },
  env: Record<string, string | undefined>,
  /** `AQM_PERSIST_MODE`, already checked (an unusable value turns the component off, as other variables do). */
  modeFromEnv: PersistMode | undefined = undefined,
): PersistOptions {
  let persistDir: string | undefined;
  if (raw.persistDir !== undefined) {
    if (typeof raw.persistDir !== 'string' || raw.persistDir.trim() === '') {
      throw new TypeError(
        `Expected \`persistDir\` to be a folder path (a non-empty string), got ${describeValue(raw.persistDir)}`,
      );
    }
    persistDir = resolve(raw.persistDir);
  } else {
    const fromEnv = env.AQM_PERSIST_DIR?.trim();
    persistDir = fromEnv === undefined || fromEnv === '' ? undefined : resolve(fromEnv);
  }
  return {
    persistDir,
    maxDiskBytes: integerOption('maxDiskBytes', raw.maxDiskBytes, 256 * MIB, MIB),
    persistMode: persistModeOption(raw.persistMode, modeFromEnv),
  };
}
