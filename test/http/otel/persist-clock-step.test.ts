import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withPersistStack } from './helpers/persist-stack.js';
import { recordJson, SHIFT_CLOCK, startSpillChild, writeSpillFile } from './helpers/spill-files.js';
import { waitFor } from './helpers/wait.js';

const newTraceId = () => randomBytes(16).toString('hex');

/** The claim folders of `dir` that hold spill files, with them. */
async function claimed(dir: string): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const owner of await readdir(join(dir, 'owners')).catch(() => [] as string[])) {
    const files = (await readdir(join(dir, 'owners', owner)).catch(() => [] as string[])).filter((name) =>
      name.endsWith('.aqmspill'),
    );
    if (files.length > 0) found.set(owner, files);
  }
  return found;
}

describe('persistDir: a wall clock stepped forward does not hand a live process its neighbour’s files', () => {
  const stack = withPersistStack('persist-clock');

  const cases: { name: string; first: Record<string, string>; second: Record<string, string> }[] = [
    { name: 'on the same host', first: {}, second: { CLOCK_OFFSET_MS: '120000' } },
    {
      name: 'on two hosts with skewed clocks',
      first: { FAKE_HOSTNAME: 'host-a.example' },
      second: { FAKE_HOSTNAME: 'host-b.example', CLOCK_OFFSET_MS: '120000' },
    },
  ];
  for (const [index, { name, first, second }] of cases.entries()) {
    it(`${name}: the live process keeps its claimed files and 200 traces arrive once each`, async () => {
      const applicationId = await stack.service.createApp(`persist-clock-${index}`);
      const ids: string[] = [];
      for (let file = 0; file < 8; file += 1) {
        const records = Array.from({ length: 25 }, () => {
          const id = newTraceId();
          ids.push(id);
          return { traceId: id, json: recordJson(id) };
        });
        await writeSpillFile(stack.dir, 1_700_000_000_000 + file, records, file);
      }
      const env = stack.envFor(applicationId, { MODE: 'drain' });
      stack.service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
      // The live process claims a file and keeps retrying it through the outage.
      const live = startSpillChild({ ...env, ...first }, ['--import', SHIFT_CLOCK]);
      const deadline = Date.now() + 15_000;
      let held = await claimed(stack.dir);
      while (held.size === 0) {
        if (Date.now() > deadline) throw new Error(`no file claimed; ${live.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
        held = await claimed(stack.dir);
      }
      // A second process whose wall clock is two minutes ahead: the live one's heartbeat looks old to it.
      const stepped = startSpillChild({ ...env, ...second, REPORT_SCAN: '1' }, ['--import', SHIFT_CLOCK]);
      await waitFor(
        () => stepped.lines.length > 0,
        'the stepped process to scan the folder',
        15_000,
        stepped.stderr,
      );
      expect(stepped.lines[0]).toMatchObject({ scanned: true });
      const after = await claimed(stack.dir);
      for (const [owner, files] of held) {
        for (const file of files)
          expect.soft(after.get(owner) ?? [], `${owner}/${file} is still the live process's`).toContain(file);
      }

      stack.service.srv.setFaults(null);
      expect(await live.exited, live.stderr()).toBe(0);
      expect(await stepped.exited, stepped.stderr()).toBe(0);
      const twice = ids.filter((id) => (stack.proxy.accepted.get(id) ?? 0) > 1);
      expect(twice, `${twice.length} trace(s) delivered twice`).toEqual([]);
      for (const id of ids) expect(stack.proxy.accepted.get(id), id).toBe(1);
    }, 60_000);
  }
});
