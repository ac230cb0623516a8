import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DATABASE_FILE, OWNER_FILE } from '@aqm/server';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { caller, makeTrace } from './helpers.js';

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('@aqm/server/package.json'));
const packageJson = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
};
const bin = join(packageDir, packageJson.bin['aqm-server'] as string);
const KEY = 'crash-key';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
const root = mkdtempSync(join(tmpdir(), 'aqm-crash-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Running {
  child: ChildProcess;
  url: string;
}

/** Starts the bin on `dataDir` and resolves with its URL once it is ready. */
function startServerProcess(dataDir: string): Promise<Running> {
  const child = spawn(bin, ['--port', '0', '--data-dir', dataDir, '--api-key', `${KEY}:p`], {
    stdio: 'pipe',
  });
  children.push(child);
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /export AQM_BASE_URL=(\S+)/.exec(out)?.[1];
      if (url !== undefined && out.includes('Press Ctrl-C')) resolve({ child, url });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening: ${err}`)));
  });
}

/** `PRAGMA integrity_check` on a database file no server has open, with the server's SQLite library. */
function integrityCheck(file: string): unknown {
  const sqlite = createRequire(join(packageDir, 'package.json'))('node-sqlite3-wasm') as {
    Database: new (
      path: string,
    ) => {
      exec(sql: string): void;
      get(sql: string): Record<string, unknown>;
      close(): void;
    };
  };
  const db = new sqlite.Database(file);
  try {
    // As the server opens it: the library has no shared memory for a write-ahead log's index.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    return db.get('PRAGMA integrity_check').integrity_check;
  } finally {
    db.close();
  }
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
    } else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

describe('aqm-server after an unclean exit', { timeout: 60_000 }, () => {
  it('comes back by itself after SIGKILL mid-writes, with every acknowledged write intact', async () => {
    const dataDir = join(root, 'killed');
    const first = await startServerProcess(dataDir);
    const call = caller(first.url, KEY);
    const app = (await call('POST', '/applications', { json: { name: 'before-kill' } })).body.data;
    // Writes keep going while the process is killed: every one answered 200 must survive.
    const acknowledged: string[] = [];
    let stop = false;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stop; i += 1) {
        const trace = makeTrace(new Date(), 5, { prompt: `writer ${w} write ${i}` });
        const res = await call('POST', `/applications/${app.id}/evaluations`, {
          json: { traces: [trace] },
        }).catch(() => undefined);
        if (res?.status === 200) acknowledged.push(trace.traceId);
        else return;
      }
    });
    while (acknowledged.length < 40) await new Promise((r) => setImmediate(r));
    first.child.kill('SIGKILL');
    expect((await exitOf(first.child)).signal).toBe('SIGKILL');
    stop = true;
    await Promise.all(writers);
    // What the dead process left: the SQLite library's lock folder and the owner file.
    expect(existsSync(join(dataDir, `${DATABASE_FILE}.lock`))).toBe(true);
    expect(existsSync(join(dataDir, OWNER_FILE))).toBe(true);

    const second = await startServerProcess(dataDir);
    const call2 = caller(second.url, KEY);
    expect((await call2('GET', `/applications/${app.id}`)).status).toBe(200);
    for (const traceId of acknowledged) {
      expect((await call2('GET', `/applications/${app.id}/traces/${traceId}`)).status, traceId).toBe(200);
    }
    // And it keeps working: a write after the restart.
    expect((await call2('POST', '/applications', { json: { name: 'after-kill' } })).status).toBe(200);

    // A second live server on the same dataDir is still refused, naming the owner.
    const refused = await startServerProcess(dataDir).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/exited with 1 .*in use by another aqm-server \(pid \d+/s);

    second.child.kill('SIGTERM');
    expect(await exitOf(second.child)).toEqual({ code: 0, signal: null });
    // A clean stop leaves nothing behind.
    expect(existsSync(join(dataDir, OWNER_FILE))).toBe(false);
    expect(existsSync(join(dataDir, `${DATABASE_FILE}.lock`))).toBe(false);
    // SQLite's own check of every page and index of the file the killed process wrote to.
    expect(integrityCheck(join(dataDir, DATABASE_FILE))).toBe('ok');
  });

  it('comes back after being killed twice in a row, the second time right after it started', async () => {
    const dataDir = join(root, 'twice');
    const first = await startServerProcess(dataDir);
    await caller(first.url, KEY)('POST', '/applications', { json: { name: 'kept' } });
    first.child.kill('SIGKILL');
    await exitOf(first.child);
    const second = await startServerProcess(dataDir);
    second.child.kill('SIGKILL');
    await exitOf(second.child);
    const third = await startServerProcess(dataDir);
    const apps = (await caller(third.url, KEY)('GET', '/applications')).body.data;
    expect(apps.map((a: { name: string }) => a.name)).toEqual(['kept']);
  });

  it('survives stdout closed by its reader (`aqm-server | head`) and still closes cleanly on SIGTERM', async () => {
    const dataDir = join(root, 'epipe');
    const running = await startServerProcess(dataDir);
    // Like `head -n 1` exiting: the read end of the pipe goes away.
    running.child.stdout?.destroy();
    expect((await caller(running.url, KEY)('GET', '/applications')).status).toBe(200);
    running.child.kill('SIGTERM');
    expect(await exitOf(running.child)).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dataDir, OWNER_FILE))).toBe(false);
    expect(existsSync(join(dataDir, `${DATABASE_FILE}.lock`))).toBe(false);
  });
});
