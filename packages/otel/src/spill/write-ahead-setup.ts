import type { DiagLogger } from '@opentelemetry/api';
import type { SpillFileName, SpillRecord } from './spill-file.js';
import type { SpillFolder } from './spill-folder.js';
import { WriteAheadLog } from './write-ahead-log.js';
import { sendClaimedLogs } from './write-ahead-recovery.js';

const MIB = 1024 * 1024;
/** Smallest size past which a write-ahead file of records memory holds is replaced by a new one. */
const MIN_LOG_SEGMENT_BYTES = 4 * MIB;

/** What the write-ahead log of a {@link DiskSpill} is told and asks for. */
export interface WriteAheadParts {
  dir: string;
  folder: SpillFolder;
  poolBytes(): number;
  addedToPool(file: SpillFileName): void;
  refused(error: unknown): void;
  limits: {
    maxDiskBytes: number;
    maxBatchTraces: number;
    maxBatchBytes: number;
    batchDelayMs: number;
    retryMs: number;
  };
}

/** The write-ahead log of `persistMode: 'write-ahead'`, in the process's claim folder. */
export function createWriteAheadLog(parts: WriteAheadParts): WriteAheadLog {
  const { folder, limits } = parts;
  return new WriteAheadLog(
    {
      dir: parts.dir,
      ownerDir: folder.ownerDir,
      ownerId: folder.id,
      poolBytes: parts.poolBytes,
      addedToPool: parts.addedToPool,
      refused: parts.refused,
    },
    {
      maxDiskBytes: limits.maxDiskBytes,
      maxBatchTraces: limits.maxBatchTraces,
      maxBatchBytes: limits.maxBatchBytes,
      lingerMs: limits.batchDelayMs,
      segmentBytes: Math.max(MIN_LOG_SEGMENT_BYTES, 4 * limits.maxBatchBytes),
      retryMs: limits.retryMs,
    },
  );
}

/**
 * Writes the claimed logs of gone processes to the pool as spill files and says what was taken
 * over; resolves whether any file was. Rejects when the disk refused a write.
 */
export async function takeOverClaimedLogs(
  folder: SpillFolder,
  write: (records: readonly SpillRecord[]) => Promise<boolean>,
  maxDiskBytes: number,
  logger: DiagLogger,
): Promise<boolean> {
  const logs = await sendClaimedLogs(folder, write, maxDiskBytes);
  if (logs.files === 0) return false;
  logger.info(
    `Took over ${logs.traces} trace(s) from ${logs.files} write-ahead log file(s) left in persistDir by a process that is gone` +
      (logs.skipped > 0 ? ` (${logs.skipped} line(s) that were not records skipped)` : ''),
  );
  return true;
}
