import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AqmClient } from '@aqm/client';
import { ENV_VARIABLES, type EnvPackage, type EnvVariable } from '@aqm/otel/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppDir } from '../auto/helpers/app-dir.js';
import { runApp } from '../auto/helpers/run-app.js';
import { startTestService, type TestService } from '../otel/helpers/service.js';
import { envFor, probeForwarder, probeOtel, recordOf, withEnv } from './helpers/in-process.js';
import { type Observation, type Probe, SAMPLES, visible, type WalkContext } from './helpers/samples.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

/** The row of the root README's table a variable gets: the table is this list, written out. */
function tableRow(variable: EnvVariable): string {
  const packages = variable.packages.map((name) => name.replace('@aqm/', '')).join(', ');
  return `| \`${variable.name}\` | ${variable.sets} | ${variable.default} | ${variable.accepted} | ${packages} |`;
}

/** The rows of the README's "Environment variables" table (header and rule left out). */
function readmeRows(): string[] {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const section = readme.split('\n## Environment variables\n')[1]?.split('\n## ')[0] ?? '';
  // Cells compared trimmed: a formatter may pad the columns.
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `AQM_'))
    .map((line) =>
      line
        .split(' | ')
        .map((cell) => cell.trim())
        .join(' | ')
        .replace(/\s+\|$/, ' |'),
    );
}

/** Every `AQM_*` name the packages' sources mention, less the two that are no variables. */
function variablesInCode(): Set<string> {
  const names = new Set<string>();
  const declared = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const code = readFileSync(path, 'utf8');
        for (const match of code.matchAll(/(?<![A-Z_])AQM_[A-Z][A-Z_]*[A-Z]/g)) names.add(match[0]);
        for (const match of code.matchAll(/\bconst (AQM_[A-Z_]+)\s*=/g)) declared.add(match[1] as string);
      }
    }
  };
  for (const pkg of readdirSync(join(repo, 'packages'))) walk(join(repo, 'packages', pkg, 'src'));
  // A symbol of @aqm/otel's log processor, an attribute prefix, and a process warning code, not
  // environment variables; and the names of constants (span attribute names such as AQM_USER_ID).
  for (const name of ['AQM_LOG_PROCESSOR', 'AQM_DOCUMENTS', 'AQM_PROXY_ENV', ...declared]) names.delete(name);
  return names;
}

describe('the environment table', () => {
  it('lists exactly the variables of ENV_VARIABLES, row for row, and the code reads no other', () => {
    const expected = ENV_VARIABLES.map(tableRow);
    // On a difference, the expected rows are the ones to paste into the README.
    expect(readmeRows(), `README rows should be:\n${expected.join('\n')}`).toEqual(expected);
    expect([...variablesInCode()].sort()).toEqual(ENV_VARIABLES.map((variable) => variable.name).sort());
    expect(Object.keys(SAMPLES).sort()).toEqual(ENV_VARIABLES.map((variable) => variable.name).sort());
  });
});

let service: TestService;
let ctx: WalkContext;
const dirs: string[] = [];
beforeAll(async () => {
  service = await startTestService('env-walk');
  const applicationName = `env-walk-${Date.now()}`;
  const created = await service.client.applications.create({ name: applicationName });
  const persistDir = mkdtempSync(join(tmpdir(), 'aqm-env-walk-'));
  dirs.push(persistDir);
  ctx = {
    apiKey: service.apiKey,
    baseUrl: service.srv.url,
    applicationId: created.id,
    applicationName,
    persistDir,
  };
});
afterAll(async () => {
  await service?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Kind = 'valid' | 'invalid';
interface Case {
  variable: EnvVariable;
  kind: Kind;
  probe: Probe;
}

/** Every (variable, valid/invalid value) a package reads, from the list. */
function casesOf(pkg: EnvPackage): Case[] {
  const cases: Case[] = [];
  for (const variable of ENV_VARIABLES.filter((row) => row.packages.includes(pkg))) {
    const sample = SAMPLES[variable.name];
    if (sample === undefined) continue; // the first test fails then
    cases.push({ variable, kind: 'valid', probe: { name: variable.name, ...sample.valid(ctx) } });
    if (sample.invalid !== undefined) {
      cases.push({ variable, kind: 'invalid', probe: { name: variable.name, ...sample.invalid } });
    }
  }
  return cases;
}

/** What a valid value must do, seen from a package that sends traces. */
function expectValidEffect(pkg: EnvPackage, { variable, probe }: Case, seen: Observation): void {
  const what = `${probe.name}=${probe.value} in ${pkg}: ${JSON.stringify(seen.lines)}`;
  switch (variable.name) {
    case 'AQM_SAMPLE_RATE':
      expect(seen.lines, what).toEqual([]);
      expect(seen.record, what).toBeNull(); // 0: none sent
      break;
    case 'AQM_DISABLED':
      expect(seen.lines, what).toEqual([]);
      expect(seen.record, what).toBeNull();
      break;
    case 'AQM_DEBUG':
      expect(seen.debugLines, what).toBeGreaterThan(0);
      expect(seen.record, what).not.toBeNull();
      break;
    default:
      expect(seen.accepted, what).toBe(true);
      expect(seen.record, what).not.toBeNull();
  }
  if (variable.name === 'AQM_ENVIRONMENT') expect(seen.record?.environment, what).toBe(probe.value);
  if (variable.name === 'AQM_APP_VERSION') expect(seen.record?.appVersion, what).toBe(probe.value);
  const resolved = seen.resolved;
  if (resolved !== undefined && variable.option !== undefined && variable.check !== undefined) {
    // Where the package shows its resolved options, the option holds the parsed value.
    const parsed = { flag: true, number: Number(probe.value), integer: Number(probe.value) }[
      variable.check.kind as 'flag'
    ];
    expect(resolved[variable.option], what).toBe(parsed ?? probe.value);
  }
  if (resolved !== undefined && variable.name === 'AQM_PERSIST_DIR') {
    expect(resolved.persistDir, what).toBe(probe.value);
  }
  if (resolved !== undefined && variable.name === 'AQM_DEBUG') expect(seen.debugLines).toBeGreaterThan(0);
}

/** What an invalid value must do: one line naming the variable and showing the value, escaped. */
function expectOneWarning(pkg: EnvPackage, { variable, probe }: Case, seen: Observation): void {
  const what = `${probe.name}=${JSON.stringify(probe.value)} in ${pkg}: ${JSON.stringify(seen.lines)}`;
  expect(seen.lines, what).toHaveLength(1);
  const [line = ''] = seen.lines;
  expect(line, what).toContain(variable.name);
  if (SAMPLES[variable.name]?.notShown !== true)
    expect(line, what).toContain(visible(probe.value).slice(0, 30));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: no raw control character may be printed
  expect(line, what).not.toMatch(/[\u0000-\u001f]/);
  expect(line, what).not.toContain(ctx.apiKey);
  expect(seen.record, what).toBeNull();
}

function check(pkg: EnvPackage, item: Case, seen: Observation): void {
  if (item.kind === 'valid') expectValidEffect(pkg, item, seen);
  else expectOneWarning(pkg, item, seen);
}

/** Checks every case of `pkg` with `probe`, one after the other (they share process.env). */
async function walk(pkg: EnvPackage, probe: (item: Case) => Promise<Observation>): Promise<number> {
  const cases = casesOf(pkg);
  for (const item of cases) check(pkg, item, await probe(item));
  return cases.length;
}

describe('every variable of the table, in every package it names', () => {
  it('@aqm/otel', async () => {
    expect(await walk('@aqm/otel', (item) => probeOtel(ctx, service.client, item.probe))).toBeGreaterThan(10);
  });

  it('@aqm/forwarder', async () => {
    const walked = await walk('@aqm/forwarder', (item) => probeForwarder(ctx, service.client, item.probe));
    expect(walked).toBeGreaterThan(10);
  });

  it('@aqm/auto (one app process for every case)', async () => {
    const cases = casesOf('@aqm/auto');
    const seen = await runAutoWalk(cases.map((item) => item.probe));
    expect(seen).toHaveLength(cases.length);
    for (const [i, item] of cases.entries()) check('@aqm/auto', item, seen[i] as Observation);
  }, 60_000);

  it('@aqm/client and @aqm/cli', async () => {
    for (const item of casesOf('@aqm/client')) {
      const seen = await withEnv(envFor(ctx, item.probe), async () => clientRun());
      checkTool('@aqm/client', item, seen);
    }
    for (const item of casesOf('@aqm/cli')) checkTool('@aqm/cli', item, await cliRun(item));
  });
});

/** The client and the CLI send no trace: a valid value works, an invalid one is one error line. */
function checkTool(pkg: EnvPackage, item: Case, seen: Observation): void {
  if (item.kind === 'invalid') expectOneWarning(pkg, item, seen);
  else expect(seen, `${item.probe.name} in ${pkg}`).toMatchObject({ accepted: true, lines: [] });
}

async function clientRun(): Promise<Observation> {
  let client: AqmClient;
  try {
    client = new AqmClient();
  } catch (error) {
    return { accepted: false, record: null, lines: [(error as Error).message], debugLines: 0 };
  }
  try {
    const found = await client.applications.get(ctx.applicationId);
    return { accepted: found.id === ctx.applicationId, record: null, lines: [], debugLines: 0 };
  } finally {
    await client.close();
  }
}

/** Runs `aqm` with the probe's environment: `spill status` for the folder, else `apps get`. */
async function cliRun({ probe }: Case): Promise<Observation> {
  const env = { PATH: process.env.PATH ?? '', ...envFor(ctx, probe) };
  const args = probe.name === 'AQM_PERSIST_DIR' ? ['spill', 'status'] : ['apps', 'get', ctx.applicationId];
  const { code, stdout, stderr } = await runApp(
    process.cwd(),
    [join(repo, 'packages/cli/dist/cli.js'), ...args],
    env,
  );
  const lines = stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('Run aqm'));
  const shows = probe.name === 'AQM_PERSIST_DIR' ? probe.value : ctx.applicationName;
  return { accepted: code === 0 && stdout.includes(shows), record: null, lines, debugLines: 0 };
}

/** Runs the auto app once for every probe; one observation per probe, in order. */
async function runAutoWalk(probes: Probe[]): Promise<Observation[]> {
  const app = createAppDir();
  try {
    const { code, stdout, stderr } = await runApp(app.dir, ['env-walk-app.mjs'], {
      PATH: process.env.PATH ?? '',
      WALK_BASE: JSON.stringify(envFor(ctx, { name: 'AQM_API_KEY', value: ctx.apiKey })),
      WALK_PROBES: JSON.stringify(probes),
    });
    expect(code, stderr).toBe(0);
    const results = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { enabled: boolean; traceId?: string; stderr: string });
    return Promise.all(
      results.map(async (result) => {
        const all = result.stderr.split('\n').filter((line) => line !== '');
        const lines = all.filter((line) => !line.startsWith('@aqm/otel debug:'));
        return {
          accepted: result.enabled && lines.length === 0,
          record:
            result.traceId === undefined
              ? null
              : await recordOf(service.client, ctx.applicationId, result.traceId),
          lines,
          debugLines: all.length - lines.length,
        };
      }),
    );
  } finally {
    app.remove();
  }
}
