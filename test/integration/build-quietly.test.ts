import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT, runNode } from './examples/run-node.js';

// scripts/build-quietly.mjs, which `pnpm start` and `pnpm demo` run first, with a stand-in `pnpm`
// on PATH (npm_execpath unset): what the build prints is shown only when it fails.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fakePnpm(exitCode: number): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), 'aqm-fake-pnpm-'));
  dirs.push(dir);
  const script = `#!/bin/sh\necho "pnpm $*: 250 lines of tsup"\necho "src/x.ts(3,1): error TS1005" >&2\nexit ${exitCode}\n`;
  writeFileSync(join(dir, 'pnpm'), script);
  chmodSync(join(dir, 'pnpm'), 0o755);
  const env = cleanEnv({ PATH: `${dir}:${process.env.PATH ?? ''}` });
  delete env.npm_execpath;
  return env;
}

describe('scripts/build-quietly.mjs', () => {
  it('prints one line when the build succeeds', async () => {
    const run = await runNode('scripts/build-quietly.mjs', {
      cwd: ROOT,
      env: fakePnpm(0),
      timeoutMs: 20_000,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Built the packages \(\d+\.\d s\)\.\n$/);
    expect(run.stderr).toBe('');
  });

  it("prints the build's output and exits with its code when it fails", async () => {
    const run = await runNode('scripts/build-quietly.mjs', {
      cwd: ROOT,
      env: fakePnpm(3),
      timeoutMs: 20_000,
    });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('pnpm build: 250 lines of tsup');
    expect(run.stderr).toContain('src/x.ts(3,1): error TS1005');
    expect(run.stderr).toContain('The build failed (exit 3); its output is above.');
  });
});
