import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { lstatOrNone, OWNER_FILE, readRegularFile } from './spill-paths.js';

/**
 * Who owns a claim folder. Each process using a spill folder has `owners/<id>/` with this file in
 * it, rewritten at every heartbeat. Files a process is sending live in its claim folder, so no
 * other process sends them; the claim folder of a process that is gone is taken over.
 */
export interface OwnerInfo {
  pid: number;
  host: string;
  startedAt: number;
  /** The pid namespace (Linux): two containers sharing a hostname have different ones. */
  pidNamespace?: string;
  /**
   * The heartbeat sequence, one more at each heartbeat. A process of another host is judged by it
   * advancing, as seen on the observer's monotonic clock: the two hosts' clocks are never compared.
   * Absent in files of earlier versions.
   */
  beat?: number;
}

export { OWNER_FILE };
/** How often a live process rewrites its owner file. */
export const HEARTBEAT_MS = 10_000;
/** A process of another host whose heartbeat did not advance for this long is gone. */
export const STALE_MS = 60_000;
/** An owner file is a few dozen bytes; a larger one is not ours. */
const MAX_OWNER_BYTES = 4096;
/** The ids of the claim folders of this process's spill folders (two exporters may share one folder). */
const LIVE_IDS = Symbol.for('@aqm/otel.spill.liveOwnerIds');

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

let namespace: string | null | undefined;
/** This process's pid namespace, `undefined` where there is none to read (not Linux). */
export function thisPidNamespace(): string | undefined {
  if (namespace === undefined) {
    try {
      namespace = readlinkSync('/proc/self/ns/pid');
    } catch {
      namespace = null;
    }
  }
  return namespace ?? undefined;
}

/** The claim folder ids of this process that are live (registered at open, removed at close). */
export function liveOwnerIds(): Set<string> {
  const registry = globalThis as unknown as Record<symbol, Set<string> | undefined>;
  registry[LIVE_IDS] ??= new Set<string>();
  return registry[LIVE_IDS];
}

/** What a process writes to its owner file. */
export function ownerRecord(startedAt: number, beat: number): OwnerInfo {
  const owner: OwnerInfo = { pid: process.pid, host: thisHost(), startedAt, beat };
  const ns = thisPidNamespace();
  if (ns !== undefined) owner.pidNamespace = ns;
  return owner;
}

/** The owner file of a claim folder, or `undefined` when missing, unreadable or not one. */
export async function readOwner(ownerDir: string): Promise<Partial<OwnerInfo> | undefined> {
  try {
    const parsed: unknown = JSON.parse(
      (await readRegularFile(join(ownerDir, OWNER_FILE), MAX_OWNER_BYTES)).toString('utf8'),
    );
    return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<OwnerInfo>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The heartbeat sequences of other hosts' processes, as this process saw them: an owner is stale
 * once its sequence stood still for STALE_MS of this process's monotonic clock. Neither a step of
 * either wall clock nor a skew between hosts moves that. Bounded by the claim folders present.
 */
export class OwnerWatch {
  readonly #seen = new Map<string, { beat: number; since: number }>();
  readonly #now: () => number;
  readonly #staleMs: number;

  constructor(now: () => number = () => performance.now(), staleMs = STALE_MS) {
    this.#now = now;
    this.#staleMs = staleMs;
  }

  /** Records `beat` for `id`; true when it has not changed for the stale window. */
  stale(id: string, beat: number): boolean {
    const now = this.#now();
    const last = this.#seen.get(id);
    if (last === undefined || last.beat !== beat) {
      this.#seen.set(id, { beat, since: now });
      return false;
    }
    return now - last.since >= this.#staleMs;
  }

  /** Forgets the owners not in `present` (their folders are gone). */
  retain(present: ReadonlySet<string>): void {
    for (const id of this.#seen.keys()) if (!present.has(id)) this.#seen.delete(id);
  }
}

/**
 * Whether the owner of `ownerDir` is gone.
 *
 * - A process of this host (same hostname and pid namespace) is alive while its pid runs, however
 *   old its heartbeat: a clock stepped forward must not hand a live process's files to another.
 *   Its pid being this process's own, in a claim folder this process did not open, is an earlier
 *   process (a restarted container) whose pid came back.
 * - A process of another host: with `watch`, gone once its heartbeat sequence stood still for
 *   STALE_MS of this process's monotonic clock. Without one (a one-off look, as `aqm spill` takes),
 *   or for an owner file of an earlier version, by the age of its last heartbeat (STALE_MS).
 * - A folder without a readable owner file (a process that died while creating it) by its own age.
 */
export async function ownerIsGone(ownerDir: string, now: number, watch?: OwnerWatch): Promise<boolean> {
  const owner = await readOwner(ownerDir);
  const stat = await lstatOrNone(join(ownerDir, owner === undefined ? '' : OWNER_FILE)).catch(
    () => undefined,
  );
  if (stat === undefined) return false; // removed meanwhile
  if (owner === undefined) return now - stat.mtimeMs > STALE_MS;
  const ns = thisPidNamespace();
  const sameHost =
    owner.host === thisHost() &&
    (owner.pidNamespace === undefined || ns === undefined || owner.pidNamespace === ns);
  if (sameHost && typeof owner.pid === 'number') {
    if (owner.pid === process.pid) return !liveOwnerIds().has(basename(ownerDir));
    return !pidAlive(owner.pid);
  }
  if (watch !== undefined && typeof owner.beat === 'number')
    return watch.stale(basename(ownerDir), owner.beat);
  return now - stat.mtimeMs > STALE_MS;
}
