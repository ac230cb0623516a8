import { resolve } from 'node:path';
import { describeValue, integerOption } from './option-checks.js';

const MIB = 1024 * 1024;

/** The disk options, resolved: `persistDir` absolute, or `undefined` when persistence is off. */
export interface PersistOptions {
  persistDir: string | undefined;
  maxDiskBytes: number;
}

/**
 * `persistDir` (else `AQM_PERSIST_DIR`; off when neither is set, an empty or blank variable
 * counting as unset) and `maxDiskBytes` (default 256 MiB). A relative folder is taken from the
 * working directory at start-up, so a later `chdir` does not move it.
 */
export function resolvePersistOptions(
  raw: { persistDir?: unknown; maxDiskBytes?: unknown },
  env: Record<string, string | undefined>,
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
  };
}
