import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiskSpill } from '../src/spill/disk-spill.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';

/**
 * A folder that refuses writes, and the code the disk gives for it: a read-only tmpfs mounted on
 * it (EROFS) where this runs as root (chmod does not stop root), else a folder without write
 * permission (EACCES). `undefined` where neither can be had (root without the right to mount).
 */
async function unwritableFolder(): Promise<
  { dir: string; code: string; undo: () => Promise<void> } | undefined
> {
  const dir = await mkdtemp(join(tmpdir(), 'aqm-spill-ro-'));
  if (process.getuid?.() !== 0) {
    await chmod(dir, 0o500);
    return { dir, code: 'EACCES', undo: () => rm(dir, { recursive: true, force: true }) };
  }
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    await rm(dir, { recursive: true, force: true });
    return undefined;
  }
  return {
    dir,
    code: 'EROFS',
    undo: async () => {
      execFileSync('umount', [dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let undo: (() => Promise<void>) | undefined;
afterEach(async () => {
  await undo?.();
  undo = undefined;
});

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('a folder on a read-only disk', () => {
  for (const where of ['the folder itself', 'a folder to create in it'] as const) {
    it(`is reported with the disk's own error code (EROFS, not ENOENT): ${where}`, async (context) => {
      const folder = await unwritableFolder();
      if (folder === undefined) return context.skip();
      undo = folder.undo;
      const logger = new CaptureLogger();
      const spill = new DiskSpill({
        dir: where === 'the folder itself' ? folder.dir : join(folder.dir, 'spill', 'deeper'),
        maxDiskBytes: 64 * 1024 * 1024,
        maxBatchTraces: 50,
        maxBatchBytes: 1024 * 1024,
        batchDelayMs: 0,
        logger,
        retryMs: 60_000,
      });
      spill.attach({ canTakeReplay: () => false, admit: () => [] });
      await until(() => logger.at('warn').length > 0);
      expect(logger.at('warn')).toEqual([expect.stringContaining(`refuses writes (${folder.code})`)]);
      expect(spill.writable).toBe(false);
      await spill.close(1000);
    });
  }
});
