import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AqmStats } from '@aqm/otel';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RecordingProxy, startRecordingProxy } from './helpers/recording-proxy.js';
import { startTestService, type TestService } from './helpers/service.js';
import { recordJson, startSpillChild, writeSpillFile } from './helpers/spill-files.js';
import { within } from './helpers/wait.js';

const newTraceId = () => randomBytes(16).toString('hex');

describe('persistDir: what is not the folder’s own, in real processes', () => {
  let service: TestService;
  let proxy: RecordingProxy;
  let dir: string;
  let appDir: string;

  beforeAll(async () => {
    service = await startTestService('persist-safety');
    proxy = await startRecordingProxy(service.srv.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await service?.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aqm-persist-safety-'));
    appDir = await mkdtemp(join(tmpdir(), 'aqm-persist-app-'));
    await mkdir(join(appDir, 'sessions'));
    await writeFile(join(appDir, 'sessions', 'user-1.json'), '{"precious":true}');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(appDir, { recursive: true, force: true });
  });

  const envFor = (applicationId: string, extra: Record<string, string>) => ({
    AQM_BASE_URL: proxy.url,
    AQM_API_KEY: service.apiKey,
    AQM_APPLICATION_ID: applicationId,
    AQM_PERSIST_DIR: dir,
    ...extra,
  });

  it('a FIFO among the spill files: the valid file is sent, the FIFO goes to corrupt/, the process exits by itself', async () => {
    const applicationId = await service.createApp('persist-fifo');
    execFileSync('mkfifo', [join(dir, '001600000000000-fifo-1.n5.b100.aqmspill')]); // the oldest: read first
    const ids = Array.from({ length: 20 }, newTraceId);
    await writeSpillFile(
      dir,
      1_700_000_000_000,
      ids.map((id) => ({ traceId: id, json: recordJson(id) })),
    );
    const app = startSpillChild(envFor(applicationId, { MODE: 'drain' }));
    let code: number | null;
    try {
      code = await within(app.exited, 20_000, 'the process with a FIFO in its folder');
    } catch (error) {
      await app.kill9();
      throw error;
    }
    expect(code, app.stderr()).toBe(0);
    for (const id of ids) expect(proxy.accepted.get(id), id).toBe(1);
    const [moved] = await readdir(join(dir, 'corrupt'));
    expect((await stat(join(dir, 'corrupt', moved as string))).isFIFO()).toBe(true);
    expect((app.lines[0] as { stats: AqmStats }).stats.disk?.corruptFiles).toBe(1);
  }, 30_000);

  it('an owners/ that links to the app’s folder: one stderr line, memory only, the app’s files untouched', async () => {
    const applicationId = await service.createApp('persist-link');
    await symlink(appDir, join(dir, 'owners'));
    const app = startSpillChild(envFor(applicationId, { MODE: 'send', TRACES: '30' }));
    expect(await within(app.exited, 20_000, 'the app'), app.stderr()).toBe(0);
    const lines = app.stderr().trim().split('\n');
    expect(lines).toEqual([
      `@aqm/otel: persistDir ${dir} is not used (owners/ is a symbolic link (to ${appDir}), not a folder it created; ` +
        'it only ever touches what it created itself, so it uses no folder whose parts are links or files): ' +
        'traces are kept in memory only (within maxQueueBytes); make persistDir a folder of its own to keep them on disk',
    ]);
    const sent = app.lines[0] as { ids: string[]; stats: AqmStats };
    for (const id of sent.ids) expect(proxy.accepted.get(id), id).toBe(1);
    expect(sent.stats.disk).toMatchObject({ writable: false, spilledTraces: 0 });
    expect(await readdir(appDir)).toEqual(['sessions']);
    expect(await readFile(join(appDir, 'sessions', 'user-1.json'), 'utf8')).toBe('{"precious":true}');
  }, 30_000);
});
