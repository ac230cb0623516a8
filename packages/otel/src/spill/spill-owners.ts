import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * Who owns a claim folder. Each process using a spill folder has `owners/<id>/` with this file in
 * it; its mtime is the process's heartbeat. Files a process is sending live in its claim folder,
 * so no other process sends them; the claim folder of a process that died is taken over.
 */
export interface OwnerInfo {
  pid: number;
  host: string;
  startedAt: number;
}

export const OWNER_FILE = 'owner.json';
/** How often a live process touches its owner file. */
export const HEARTBEAT_MS = 10_000;
/** A claim folder whose heartbeat is older than this is taken over, wherever its process runs. */
export const STALE_MS = 60_000;

/** Whether the process `pid` of this host is running (EPERM: it runs as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function thisHost(): string {
  return hostname();
}

/**
 * Whether the owner of `ownerDir` is gone: its process no longer runs on this host, or its
 * heartbeat stopped (another host, or a process that hangs). A folder without a readable owner
 * file counts by the folder's own age (a process that died while creating it).
 */
export async function ownerIsGone(ownerDir: string, now: number): Promise<boolean> {
  try {
    const [text, stat] = await Promise.all([
      fs.readFile(join(ownerDir, OWNER_FILE), 'utf8'),
      fs.stat(join(ownerDir, OWNER_FILE)),
    ]);
    const owner = JSON.parse(text) as Partial<OwnerInfo>;
    if (owner.host === thisHost() && typeof owner.pid === 'number' && !pidAlive(owner.pid)) return true;
    return now - stat.mtimeMs > STALE_MS;
  } catch {
    try {
      const stat = await fs.stat(ownerDir);
      return now - stat.mtimeMs > STALE_MS;
    } catch {
      return false; // removed meanwhile
    }
  }
}
