import { readFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';

const ESM_EXTENSIONS = new Set(['.mjs', '.mts']);
const CJS_EXTENSIONS = new Set(['.cjs', '.cts']);
/** Extensions whose format the nearest package.json's `type` decides (extensionless too). */
const SCOPED_EXTENSIONS = new Set(['', '.js', '.ts']);

/**
 * The `type` of the nearest package.json above `file`, as Node looks it up: the first
 * package.json found walking up decides, whether or not it has a `type`. `undefined` when there is
 * none or it cannot be read.
 */
function packageType(file: string): unknown {
  let dir = dirname(file);
  for (;;) {
    let raw: string | undefined;
    try {
      raw = readFileSync(join(dir, 'package.json'), 'utf8');
    } catch {
      raw = undefined;
    }
    if (raw !== undefined) {
      try {
        return (JSON.parse(raw) as { type?: unknown }).type;
      } catch {
        return undefined;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Whether Node runs the app's main script (`process.argv[1]`) as an ES module: `.mjs`/`.mts`, or a
 * `.js`/`.ts`/extensionless file whose nearest package.json says `"type": "module"`.
 *
 * `--require @aqm/auto/register` registers no ESM loader hook, so the `import`s of such an app
 * (openai, Anthropic, LangChain's ESM copy) are never instrumented and no trace is sent: the
 * CommonJS preload uses this to say so rather than stay silent. When it cannot tell (no script,
 * an unreadable package.json), the answer is `false`: a warning is not given on a guess.
 *
 * @example
 * mainIsEsm('/srv/app/app.mjs'); // true
 */
export function mainIsEsm(main: string | undefined, cwd: string = process.cwd()): boolean {
  if (main === undefined || main === '') return false;
  const file = resolve(cwd, main);
  const extension = extname(file).toLowerCase();
  if (ESM_EXTENSIONS.has(extension)) return true;
  if (CJS_EXTENSIONS.has(extension) || !SCOPED_EXTENSIONS.has(extension)) return false;
  return packageType(file) === 'module';
}

/**
 * The warning of `node --require @aqm/auto/register` for an ES module app, or `undefined` when the
 * main script is not one.
 *
 * @example
 * esmMainWarning('app.mjs'); // 'app.mjs is an ES module: --require @aqm/auto/register cannot ...'
 */
export function esmMainWarning(main: string | undefined, cwd: string = process.cwd()): string | undefined {
  if (main === undefined || !mainIsEsm(main, cwd)) return undefined;
  const name = relative(cwd, resolve(cwd, main)) || main;
  return (
    `${name} is an ES module: --require @aqm/auto/register cannot instrument what it loads with import ` +
    '(openai, @anthropic-ai/sdk, LangChain), so those calls send no trace. ' +
    'Start it with node --import @aqm/auto/register instead (in NODE_OPTIONS too).'
  );
}
