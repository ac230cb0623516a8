import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeStartError } from '../src/cli-start-error.js';
import { startServer } from '../src/start-server.js';
import { DataDirInUseError } from '../src/store/data-dir-lock.js';

const keys = { apiKeys: [{ key: 'k', projectId: 'p' }] };
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** The error a real call throws (or rejects with). */
async function errorOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('describeStartError', () => {
  it('names --data-dir for a folder that cannot be made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aqm-start-error-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    for (const [dataDir, code] of [
      [join(file, 'sub'), 'ENOTDIR'],
      [file, 'EEXIST'],
    ] as const) {
      const error = await errorOf(() => startServer({ ...keys, port: 0, dataDir }));
      expect(describeStartError(error, { port: 0, dataDir })).toMatch(
        new RegExp(
          `^--data-dir ${dataDir.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}: cannot keep the data there \\(${code}: `,
        ),
      );
    }
  });

  it('names --port for a port in use, and says what to do', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => taken.close());
    const port = (taken.address() as { port: number }).port;
    const error = await errorOf(() => startServer({ ...keys, port, host: '127.0.0.1' }));
    expect(describeStartError(error, { port, host: '127.0.0.1' })).toMatch(
      new RegExp(
        `^--port ${port}: cannot listen on 127\\.0\\.0\\.1, the port is in use \\(listen EADDRINUSE.*\\); pass another --port, or --port 0 for a free one$`,
      ),
    );
  });

  it('names --host for a name that does not resolve (the error Node gives)', () => {
    const error = Object.assign(new Error('getaddrinfo ENOTFOUND bogus.invalid'), {
      code: 'ENOTFOUND',
      syscall: 'getaddrinfo',
      hostname: 'bogus.invalid',
    });
    expect(describeStartError(error, { port: 4000, host: 'bogus.invalid' })).toBe(
      '--host bogus.invalid: cannot listen there (getaddrinfo ENOTFOUND bogus.invalid)',
    );
  });

  it('says --data-dir for a folder in use, and keeps other messages', () => {
    const inUse = new DataDirInUseError('/d', { pid: 7, host: 'h' }, '/d/aqm.sqlite.owner');
    expect(describeStartError(inUse, { port: 0, dataDir: '/d' })).toMatch(
      /^--data-dir \/d is in use by another aqm-server \(pid 7 on h\)/,
    );
    expect(describeStartError(new Error('boom'), { port: 0 })).toBe('boom');
  });
});
