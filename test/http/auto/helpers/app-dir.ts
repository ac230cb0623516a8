import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));

/**
 * The packages an app directory gets, as an install of the app would have them. `@langchain/core`
 * is the copy `@aqm/langchain` resolves: one install has a single copy, and LangChain's configure
 * hooks live per copy (pnpm keeps two here, one per set of peers).
 */
const PACKAGES: Record<string, string> = {
  '@aqm/auto': 'packages/auto',
  openai: 'packages/auto/node_modules/openai',
  '@anthropic-ai/sdk': 'packages/auto/node_modules/@anthropic-ai/sdk',
  '@langchain/core': 'packages/langchain/node_modules/@langchain/core',
  '@opentelemetry/api': 'packages/auto/node_modules/@opentelemetry/api',
  '@opentelemetry/sdk-trace-node': 'packages/auto/node_modules/@opentelemetry/sdk-trace-node',
};

/** A temporary app directory: the fixtures, and a node_modules of symlinks into this repository. */
export interface AppDir {
  readonly dir: string;
  remove(): void;
}

/**
 * Creates an app directory, so that the fixtures resolve `openai`, `@aqm/auto/register` and the
 * rest by their bare names, from the app's own node_modules, as a user's app does.
 *
 * @example
 * const app = createAppDir();
 * // node --import @aqm/auto/register openai-app.mjs, with cwd app.dir
 * app.remove();
 */
export function createAppDir(): AppDir {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'aqm-auto-app-')));
  cpSync(fixtures, dir, { recursive: true });
  for (const [name, path] of Object.entries(PACKAGES)) {
    const link = join(dir, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(join(repo, path)), link, 'dir');
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
