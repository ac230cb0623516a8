import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
// The fixtures live in @aqm/langchain, whose dependencies (LangChain, the OTel SDK) they use, and
// import '@aqm/langchain' by name: Node resolves a package's own name to its built exports.
const packageDir = fileURLToPath(new URL('../../../packages/langchain/', import.meta.url));

/** Runs an app with a preload that calls setGlobalAqmHandler; the app prints the span names it produced. */
async function spanNamesOf(flag: '--import' | '--require', preload: string, app: string): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    [flag, `./test/fixtures/${preload}`, `./test/fixtures/${app}`],
    {
      cwd: packageDir,
    },
  );
  return JSON.parse(stdout.trim()) as string[];
}

describe('setGlobalAqmHandler from a preload module (built package)', () => {
  it('node --import preload.mjs app.mjs: runs at start-up and later are traced with no callbacks option', async () => {
    await expect(spanNamesOf('--import', 'global-preload.mjs', 'global-app.mjs')).resolves.toEqual([
      'chat',
      'chat',
    ]);
  });

  it('node --require preload.cjs app.cjs: the same for a CommonJS app', async () => {
    await expect(spanNamesOf('--require', 'global-preload.cjs', 'global-app.cjs')).resolves.toEqual([
      'chat',
      'chat',
    ]);
  });

  it('a CommonJS registration does not reach an ESM app (LangChain keeps configure hooks per module copy), as documented', async () => {
    await expect(spanNamesOf('--require', 'global-preload.cjs', 'global-app.mjs')).resolves.toEqual([]);
  });
});
