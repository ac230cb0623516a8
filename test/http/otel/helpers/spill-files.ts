import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { type JsonLinesChild, startJsonLinesChild } from './json-lines-child.js';

const CHILD = fileURLToPath(new URL('../fixtures/spill-child.mjs', import.meta.url));

/**
 * Writes one spill file as @aqm/otel writes them (the format is restated here, so a change to it
 * shows up as a failing test): header, then `traceId<TAB>record JSON` lines.
 */
export async function writeSpillFile(
  dir: string,
  writtenAt: number,
  records: readonly { traceId: string; json: string }[],
  sequence = 1,
): Promise<string> {
  const payload = Buffer.from(records.map((r) => `${r.traceId}\t${r.json}\n`).join(''), 'utf8');
  const header = `AQMSPILL1 ${records.length} ${payload.length} ${crc32(payload).toString(16).padStart(8, '0')}\n`;
  const data = Buffer.concat([Buffer.from(header), payload]);
  const name = `${String(writtenAt).padStart(15, '0')}-test-${sequence}.n${records.length}.b${data.length}.aqmspill`;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), data, { mode: 0o600 });
  return name;
}

/** A valid record (as the service's schema wants it) with the given id and a prompt of `promptChars`. */
export function recordJson(traceId: string, promptChars = 40): string {
  return JSON.stringify({
    traceId,
    prompt: `q ${traceId} ${'x'.repeat(Math.max(0, promptChars - 40))}`,
    response: `a ${traceId}`,
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-01-01T00:00:01.000Z',
    status: 'success',
  });
}

/** The trace ids in every spill file of a folder (its pool and every claim folder). */
export async function traceIdsOnDisk(dir: string): Promise<string[]> {
  const ids: string[] = [];
  const readIds = async (folder: string) => {
    for (const name of await readdir(folder)) {
      if (!name.endsWith('.aqmspill')) continue;
      const lines = (await readFile(join(folder, name), 'utf8')).split('\n').slice(1);
      for (const line of lines) if (line !== '') ids.push(line.slice(0, line.indexOf('\t')));
    }
  };
  await readIds(dir);
  const owners = join(dir, 'owners');
  for (const owner of await readdir(owners).catch(() => [] as string[])) await readIds(join(owners, owner));
  return ids;
}

/** A running spill-child process; `lines` are its stdout JSON lines. */
export type SpillChild = JsonLinesChild;

/** Preload for a child whose wall clock runs `CLOCK_OFFSET_MS` ahead, on host `FAKE_HOSTNAME`. */
export const SHIFT_CLOCK = fileURLToPath(new URL('../fixtures/shift-clock.mjs', import.meta.url));

/** Starts the spill child (fixtures/spill-child.mjs), its `MODE` and the rest set by `env`. */
export function startSpillChild(env: Record<string, string>, nodeArgs: readonly string[] = []): SpillChild {
  return startJsonLinesChild(CHILD, env, nodeArgs);
}
