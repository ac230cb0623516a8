import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeSpillFile, parseSpillFileName, type SpillFileName } from '../src/spill/spill-file.js';
import { WriteAheadLog } from '../src/spill/write-ahead-log.js';
import { decodeLogFile, LOG_HEADER_BYTES, logFileOwner } from '../src/spill/write-ahead-segment.js';

const id = (n: number) => n.toString(16).padStart(32, '0');
const json = (n: number) => JSON.stringify({ traceId: id(n), prompt: `question ${n}` });

describe('write-ahead log', () => {
  let dir: string;
  let ownerDir: string;
  let pool: SpillFileName[];
  let refusals: unknown[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aqm-wal-unit-'));
    ownerDir = join(dir, 'owners', 'abc12345678');
    pool = [];
    refusals = [];
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const makeLog = (limits: Partial<ConstructorParameters<typeof WriteAheadLog>[1]> = {}) =>
    new WriteAheadLog(
      {
        dir,
        ownerDir,
        ownerId: 'abc12345678',
        poolBytes: () => pool.reduce((sum, file) => sum + file.bytes, 0),
        addedToPool: (file) => pool.push(file),
        refused: (error) => refusals.push(error),
      },
      {
        maxDiskBytes: 1024 * 1024,
        maxBatchTraces: 3,
        maxBatchBytes: 64 * 1024,
        lingerMs: 60_000,
        segmentBytes: 64 * 1024,
        retryMs: 60_000,
        ...limits,
      },
    );
  const logFiles = async () => (await readdir(ownerDir)).filter((name) => logFileOwner(name) !== undefined);

  it('a held record is in the file when logHeld returns; the file is emptied once every record settled', async () => {
    const log = makeLog();
    const releases = [1, 2].map((n) => log.logHeld(id(n), Buffer.from(json(n))));
    const [name] = await logFiles();
    const data = await readFile(join(ownerDir, name as string));
    expect(decodeLogFile(data).records.map((r) => r.traceId)).toEqual([id(1), id(2)]);
    releases[0]?.();
    expect((await stat(join(ownerDir, name as string))).size).toBe(data.length); // one still live
    releases[1]?.();
    expect((await stat(join(ownerDir, name as string))).size).toBe(LOG_HEADER_BYTES);
    expect(log.bytes).toBe(LOG_HEADER_BYTES);
    await log.close();
    expect(await logFiles()).toEqual([]);
  });

  it('a file replaced at segmentBytes is deleted once its last record settles', async () => {
    const log = makeLog({ segmentBytes: 200 });
    const releases = [1, 2, 3, 4].map((n) => log.logHeld(id(n), Buffer.from(json(n))));
    expect((await logFiles()).length).toBeGreaterThan(1);
    for (const release of releases) release?.();
    // Deleted off the event loop: bounded polling until only the current file is left.
    for (let i = 0; i < 200 && (await logFiles()).length > 1; i += 1)
      await new Promise((r) => setTimeout(r, 5));
    expect((await logFiles()).length).toBe(1);
    await log.close();

    expect(await logFiles()).toEqual([]);
  });

  it('records memory cannot hold are sealed into the pool as a spill file at a request worth', async () => {
    const log = makeLog();
    expect([1, 2, 3].map((n) => log.logOverflow(id(n), json(n), Buffer.byteLength(json(n))))).toEqual([
      'logged',
      'logged',
      'logged',
    ]);
    await log.close();
    expect(pool).toHaveLength(1);
    const file = pool[0] as SpillFileName;
    expect(parseSpillFileName(file.name)).toMatchObject({ traces: 3 });
    const decoded = decodeSpillFile(await readFile(join(dir, file.name)));
    expect('records' in decoded && decoded.records.map((r) => r.traceId)).toEqual([id(1), id(2), id(3)]);
    expect(await logFiles()).toEqual([]);
    expect(refusals).toEqual([]);
  });

  it("refuses a record past maxDiskBytes ('full') instead of deleting what was accepted", () => {
    const log = makeLog({ maxDiskBytes: 300 });
    const outcomes = [1, 2, 3, 4, 5].map((n) => log.logOverflow(id(n), json(n), Buffer.byteLength(json(n))));
    expect(outcomes).toContain('full');
    expect(outcomes.indexOf('full')).toBeGreaterThan(0);
  });

  it('reads the whole records of a log cut off by a kill: a torn last line and lines that are not records are left out', () => {
    const header = Buffer.alloc(LOG_HEADER_BYTES, 0x30);
    const lines = `${id(1)}\t${json(1)}\n\0\0\0\n${id(2)}\t${json(2)}\n${id(3)}\t{"traceId":"${id(3)}","pro`;
    const decoded = decodeLogFile(Buffer.concat([header, Buffer.from(lines)]));
    expect(decoded.records.map((r) => r.traceId)).toEqual([id(1), id(2)]);
    expect(decoded.skipped).toBe(1);
  });
});
