import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_READMES, CODE_LANGS, type Fence, fencesOf } from './readme-fences.js';
import { importedPackages, linkPackage, workspacePackage } from './readme-project.js';
import { cleanEnv, ROOT, runCommand } from './run-node.js';

/**
 * Every TypeScript/JavaScript block of the READMEs (root, packages, examples) and of docs/,
 * type-checked as a user's project would check it: strict, `exactOptionalPropertyTypes`,
 * `module`/`moduleResolution` `nodenext`, against the built packages through their `exports`
 * (linked into the project's node_modules, as npm installs them), with `@types/express` 5, and
 * the blocks that use Express once more with `@types/express` 4. A `js` block is checked as
 * JavaScript (`checkJs`), a `ts` block as TypeScript; ESM (`.mjs`/`.mts`) unless the block is
 * CommonJS (a `.cjs` file name, or `require` and no `import`). A block that is a fragment gets
 * its context from a `typecheck prelude` comment, or is skipped with a reason (readme-fences.ts).
 * Errors are reported at the README line the reader sees.
 */

interface Block {
  fence: Fence;
  /** File name in the project's snippets/ folder. */
  file: string;
  /** Lines of the prelude written in front of the block's code. */
  preludeLines: number;
  code: string;
}

const FILE_LINE = /^(?:\/\/) ([\w-]+\.(?:mjs|cjs|mts|cts|js|ts))\b/;

function isCommonJs(fence: Fence): boolean {
  const named = FILE_LINE.exec(fence.body)?.[1];
  if (named !== undefined) return /\.c[jt]s$/.test(named);
  const code = `${fence.prelude?.code ?? ''}\n${fence.body}`;
  return /\brequire\(/.test(code) && !/^\s*import\s/m.test(code);
}

const fences = ALL_READMES.flatMap(fencesOf).filter((f) => CODE_LANGS.has(f.lang));
const skipped = fences.filter((f) => f.skip !== undefined);
const blocks: Block[] = fences
  .filter((f) => f.skip === undefined)
  .map((fence, i) => {
    const ts = fence.lang === 'ts' || fence.lang === 'typescript';
    // A program is checked as the file it says it is (`// example.mjs`), whatever the fence's language.
    const named = FILE_LINE.exec(fence.body)?.[1]?.replace(
      /^.*\.(c|m)?([jt]s)$/,
      (_, c, l) => `${c ?? 'm'}${l}`,
    );
    const ext = named ?? `${isCommonJs(fence) ? 'c' : 'm'}${ts ? 'ts' : 'js'}`;
    const slug = `${fence.readme.replace(/\/README\.md$|\.md$/, '').replace(/\W+/g, '-')}-L${fence.line}`;
    const prelude = fence.prelude === undefined ? '' : `${fence.prelude.code}\n`;
    return {
      fence,
      file: `${String(i).padStart(3, '0')}-${slug}.${ext}`,
      preludeLines: prelude === '' ? 0 : prelude.split('\n').length - 1,
      code: prelude + fence.body,
    };
  });

/** A tsc diagnostic line `snippets/<file>(line,col): error TS…` at the README line it is about. */
function readmeLocation(diagnostic: string): string {
  const m = /^snippets\/([^(]+)\((\d+),(\d+)\): (.*)$/.exec(diagnostic);
  const block = blocks.find((b) => b.file === m?.[1]);
  if (m === null || block === undefined) return diagnostic;
  const line = Number(m[2]);
  const { fence } = block;
  const at =
    line <= block.preludeLines
      ? `${(fence.prelude?.line ?? 0) + line - 1} (typecheck prelude)`
      : `${fence.line + line - block.preludeLines - 1}`;
  return `${fence.readme}:${at}:${m[3]} ${m[4]}`;
}

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const projects: string[] = [];

/** Writes the blocks into a fresh project whose `@types/express` is the given folder, runs tsc once. */
async function typecheck(selected: Block[], typesExpress: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'aqm-readme-types-'));
  projects.push(dir);
  mkdirSync(join(dir, 'snippets'));
  const names = new Set<string>();
  const missing: string[] = [];
  for (const block of selected) {
    writeFileSync(join(dir, 'snippets', block.file), block.code);
    for (const name of importedPackages(block.code)) {
      names.add(name);
      if (workspacePackage(name) === undefined) {
        missing.push(
          `${block.fence.readme}:${block.fence.line} imports ${name}, which the workspace does not have`,
        );
      }
    }
  }
  // A block the test cannot check is skipped in the README, with its reason, not here.
  if (missing.length > 0) return missing;
  for (const name of names) {
    linkPackage(dir, name, workspacePackage(name) ?? '');
    // A package typed by DefinitelyTyped comes with its @types package, as a TypeScript user installs it.
    const types = `@types/${name.replace(/^@([^/]+)\//, '$1__')}`;
    const typesFound = name === 'express' ? typesExpress : workspacePackage(types);
    if (typesFound !== undefined) linkPackage(dir, types, typesFound);
  }
  linkPackage(dir, '@types/node', workspacePackage('@types/node') ?? '');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2023'],
        types: ['node'],
        allowJs: true,
        checkJs: true,
        noEmit: true,
        skipLibCheck: true,
        // Each block is a module of its own, whether or not it imports anything.
        moduleDetection: 'force',
      },
      include: ['snippets'],
    }),
  );
  const run = await runCommand(process.execPath, [TSC, '-p', '.', '--pretty', 'false'], {
    cwd: dir,
    env: cleanEnv(),
    timeoutMs: 120_000,
  });
  const diagnostics = `${run.stdout}${run.stderr}`.split('\n').filter((l) => l.trim() !== '');
  // A run that failed without a diagnostic (tsc not found, a crash) must not pass as "no errors".
  if (run.code !== 0 && diagnostics.length === 0) return [`tsc exited ${run.code ?? run.signal}`];
  return diagnostics.filter((l) => !l.startsWith(' ')).map(readmeLocation);
}

describe('README code blocks type-check (strict, exactOptionalPropertyTypes, nodenext)', () => {
  afterAll(() => {
    for (const dir of projects) rmSync(dir, { recursive: true, force: true });
  });

  it(`checks ${blocks.length} blocks, skips ${skipped.length}, each skip with its reason`, () => {
    console.log(
      `README code blocks: ${blocks.length} type-checked, ${skipped.length} skipped` +
        skipped.map((f) => `\n  ${f.readme}:${f.line} skipped: ${f.skip}`).join(''),
    );
    for (const fence of skipped) expect(fence.skip, `${fence.readme}:${fence.line}`).not.toBe('');
    expect(blocks.length).toBeGreaterThan(skipped.length);
  });

  it('with @types/express 5', { timeout: 120_000 }, async () => {
    expect(await typecheck(blocks, workspacePackage('@types/express') ?? '')).toEqual([]);
  });

  it('the blocks that use Express, with @types/express 4', { timeout: 120_000 }, async () => {
    const expressBlocks = blocks.filter((b) => importedPackages(b.code).has('express'));
    expect(expressBlocks.length).toBeGreaterThan(0);
    expect(await typecheck(expressBlocks, workspacePackage('@types/express4') ?? '')).toEqual([]);
  });
});
