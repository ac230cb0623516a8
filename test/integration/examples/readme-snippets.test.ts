import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AqmClient } from '@aqm/client';
import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importedPackages, linkPackage, packageOf, workspacePackage } from './readme-project.js';
import { cleanEnv, ROOT, runCommand } from './run-node.js';

/**
 * The programs of the READMEs: a fenced block whose first line names its file (`// example.mjs`,
 * `# try-it.sh`) is a complete program, run as the README says (`node example.mjs`,
 * `sh try-it.sh`) in a project that has the packages it imports, twice in a row against one
 * local service: a README example that works once and fails the second time (a name taken, 409)
 * fails here.
 */
interface Snippet {
  readme: string;
  file: string;
  code: string;
  /** The `text` block right after the program (alone or after "prints"): its exact output. */
  output: string | undefined;
  /** Offset of the block in the README. */
  start: number;
}

const READMES = [
  'README.md',
  ...readdirSync(join(ROOT, 'packages'))
    .map((name) => join('packages', name, 'README.md'))
    .filter((path) => existsSync(join(ROOT, path))),
];

// Every README program, so that one losing its file-name line (and so its test) fails here.
const EXPECTED = [
  'README.md check.mjs',
  'packages/auto/README.md app.mjs',
  'packages/cli/README.md try-it.sh',
  'packages/client/README.md example.mjs',
  'packages/client/README.md guardrails.mjs',
  'packages/express/README.md app.mjs',
  'packages/fake-llm/README.md example.mjs',
  'packages/forwarder/README.md forward-grpc.mjs',
  'packages/forwarder/README.md forward.mjs',
  'packages/langchain/README.md example.mjs',
  'packages/otel/README.md example.mjs',
  'packages/server/README.md example.mjs',
  'packages/wire/README.md example.mjs',
];

const FENCE = /^```(\w*)\n([\s\S]*?)^```$/gm;
const FILE_LINE = /^(?:\/\/|#) ([\w-]+\.(?:mjs|cjs|sh))\b/;

function snippetsOf(readme: string): Snippet[] {
  const text = readFileSync(join(ROOT, readme), 'utf8');
  const fences = [...text.matchAll(FENCE)].map((m) => ({
    lang: m[1] ?? '',
    body: m[2] ?? '',
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }));
  const snippets: Snippet[] = [];
  fences.forEach((fence, i) => {
    const file = FILE_LINE.exec(fence.body)?.[1];
    if (file === undefined || !['js', 'ts', 'sh'].includes(fence.lang)) return;
    const next = fences[i + 1];
    const between = next === undefined ? undefined : text.slice(fence.end, next.start).trim();
    const output = next?.lang === 'text' && (between === '' || between === 'prints') ? next.body : undefined;
    snippets.push({ readme, file, code: fence.body, output, start: fence.start });
  });
  return snippets;
}

const SNIPPETS = READMES.flatMap(snippetsOf);

/**
 * How the README says to run a program: `node app.mjs`, or with preload flags
 * (`node --import @aqm/auto/register app.mjs`); the flags, or undefined when it does not say.
 */
function runFlags(snippet: Snippet): string[] | undefined {
  const runner = snippet.file.endsWith('.sh') ? 'sh' : 'node';
  const file = snippet.file.replace('.', '\\.');
  const said = new RegExp(`\\b${runner}((?: --(?:import|require) [\\w@/.-]+)*) ${file}\\b`).exec(
    readFileSync(join(ROOT, snippet.readme), 'utf8'),
  );
  return said === null ? undefined : (said[1] ?? '').split(' ').filter((flag) => flag !== '');
}

/**
 * A project as a user's would be after `npm install` of what the programs import: its
 * node_modules links each such package (the workspace's built one for @aqm/*), and `aqm` is on PATH.
 */
function makeProject(snippets: Snippet[]): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'aqm-readme-'));
  const imports = new Set<string>();
  for (const snippet of snippets) {
    // A preloaded package (`--import @aqm/auto/register`) is installed as the README says, too.
    for (const flag of runFlags(snippet) ?? []) {
      const name = flag.startsWith('--') ? undefined : packageOf(flag);
      if (name !== undefined) imports.add(name);
    }
    for (const name of importedPackages(snippet.code)) imports.add(name);
  }
  for (const name of imports) {
    const found = workspacePackage(name);
    if (found === undefined) throw new Error(`no package ${name} in the workspace for the README programs`);
    linkPackage(dir, name, found);
  }
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const cli = join(ROOT, 'packages', 'cli', 'dist', 'cli.js');
  writeFileSync(join(bin, 'aqm'), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`, { mode: 0o755 });
  return { dir, path: `${bin}:${process.env.PATH ?? ''}` };
}

const RUN_TIMEOUT_MS = 30_000;

describe('README programs, run as written, twice in a row', () => {
  const apiKey = `aqm_readme_${randomBytes(12).toString('hex')}`;
  let server: RunningServer;
  let project: { dir: string; path: string };
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    server = await startServer({ port: 0, apiKeys: [{ key: apiKey, projectId: 'readme' }] });
    // What `pnpm start` (aqm-server --application support-bot) prints for the next step.
    const client = new AqmClient({ apiKey, baseUrl: server.url });
    const app = await client.applications.create({ name: 'support-bot' });
    await client.close();
    project = makeProject(SNIPPETS);
    env = cleanEnv({
      AQM_BASE_URL: server.url,
      AQM_API_KEY: apiKey,
      AQM_APPLICATION_ID: app.id,
      PATH: project.path,
      PORT: '0',
    });
  });
  afterAll(async () => {
    await server?.close();
    if (project !== undefined) rmSync(project.dir, { recursive: true, force: true });
  });

  it('finds every README program', () => {
    expect(SNIPPETS.map((s) => `${s.readme} ${s.file}`).sort()).toEqual(EXPECTED);
  });

  it.each(SNIPPETS.map((s) => [`${s.readme} ${s.file}`, s] as const))(
    '%s',
    async (_name, snippet) => {
      const runner = snippet.file.endsWith('.sh') ? 'sh' : 'node';
      // The README says how to run it, with the file name the program's first line gives, and
      // with the preload flags it gives (`node --import @aqm/auto/register app.mjs`).
      const flags = runFlags(snippet);
      expect(flags, `${snippet.readme} does not say \`${runner} ${snippet.file}\``).toBeDefined();
      const dir = mkdtempSync(join(project.dir, 'run-'));
      // A folder of its own (files it writes stay apart) inside the project: node_modules is found above.
      writeFileSync(join(dir, snippet.file), snippet.code);
      // `sh -e`: a command of the script that fails fails the run, not only the last one.
      const [command, args]: [string, string[]] =
        runner === 'sh' ? ['sh', ['-e', snippet.file]] : [process.execPath, [...(flags ?? []), snippet.file]];
      for (const attempt of ['first', 'second']) {
        const run = await runCommand(command, args, { cwd: dir, env, timeoutMs: RUN_TIMEOUT_MS });
        const context = `${attempt} run of ${snippet.readme} ${snippet.file}:\n${run.stdout}\n${run.stderr}`;
        expect(run.code, context).toBe(0);
        if (runner === 'node') expect(run.stderr, context).toBe('');
        expect(run.stdout + run.stderr, context).not.toContain(apiKey);
        if (snippet.output !== undefined) expect(run.stdout, context).toBe(snippet.output);
      }
    },
    2 * RUN_TIMEOUT_MS + 5_000,
  );
});

/** Longest quickstart program, in lines, that a package README may open with. */
const QUICKSTART_MAX_LINES = 20;

/**
 * Each package README opens with a quickstart: an install line, then, before any other
 * TypeScript/JavaScript block, a program of at most 20 lines that the test above runs as written.
 */
describe('package READMEs open with a quickstart that runs', () => {
  const packageReadmes = READMES.filter((readme) => readme.startsWith('packages'));

  it.each(packageReadmes)('%s', (readme) => {
    const text = readFileSync(join(ROOT, readme), 'utf8');
    const program = SNIPPETS.find((s) => s.readme === readme);
    expect(program, `${readme} has no program the README test runs`).toBeDefined();
    if (program === undefined) return;
    const before = text.slice(0, program.start);
    // Nothing but prose, shell and output blocks before it: the first code a reader meets is the program.
    const earlierCode = [...before.matchAll(FENCE)].filter((m) =>
      /^(ts|js|typescript|javascript)$/.test(m[1] ?? ''),
    );
    expect(
      earlierCode.map((m) => m[0].split('\n')[1]),
      `${readme}: code before the quickstart`,
    ).toEqual([]);
    expect(before, `${readme}: no install line before the quickstart`).toMatch(/\bnpm install\b|\bnpx\b/);
    const lines = program.code.replace(/\n$/, '').split('\n').length;
    expect(lines, `${readme} ${program.file}: ${lines} lines`).toBeLessThanOrEqual(QUICKSTART_MAX_LINES);
  });
});
