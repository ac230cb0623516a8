import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AQM_VERSION,
  type CliRun,
  type CliService,
  runAqm,
  runInProcess,
  spawnAqm,
  startCliService,
  until,
} from './helpers.js';

let svc: CliService;
beforeAll(async () => {
  svc = await startCliService();
});
afterAll(async () => {
  await svc?.close();
});

const MISSING_APP = '00000000-0000-4000-8000-000000000000';

/** Checks a failed run: the exit code, no stdout, one line on stderr without the key; returns the line. */
function oneLineFailure(run: CliRun, code: number): string {
  expect(run.code).toBe(code);
  expect(run.stdout).toBe('');
  expect(run.stderr).not.toContain(svc.apiKey);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] as string;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('service errors: one line saying what to do, exit code 1', () => {
  // The bin's exit code is checked on 401 and 400; the other outcomes run the same code in-process.
  it('401 check the key, 404 the application id, 409 the name is taken, network the address', async () => {
    const name = `cli-taken-${Date.now()}`;
    await svc.client.applications.create({ name });
    const port = await freePort();
    const [unauthorized, missing, taken, unreachable] = await Promise.all([
      runAqm(['apps', 'list', '--api-key', 'wrong-secret-value'], svc.env),
      runInProcess(['monitoring', 'get', MISSING_APP], svc.env),
      runInProcess(['apps', 'create', name], svc.env),
      runInProcess(['metrics', 'eval'], { ...svc.env, AQM_BASE_URL: `http://127.0.0.1:${port}/api` }),
    ]);
    expect(oneLineFailure(unauthorized, 1)).toBe(
      'aqm: The service refused the API key (401). Check --api-key or AQM_API_KEY.',
    );
    expect(unauthorized.stderr).not.toContain('wrong-secret-value');
    expect(oneLineFailure(missing, 1)).toMatch(
      /^aqm: Not found \(404\): .*00000000-0000-4000-8000-000000000000.*\. Check the application id/,
    );
    expect(oneLineFailure(taken, 1)).toMatch(/^aqm: The name is taken \(409\): .*Choose another name/);
    expect(oneLineFailure(unreachable, 1)).toBe(
      `aqm: Could not reach the service at http://127.0.0.1:${port}/api (ECONNREFUSED). Check --base-url or AQM_BASE_URL and that the service is running.`,
    );
  });

  it("400: a summary line, then the service's errors[], one per line", async () => {
    const id = await svc.createApp('cli-400');
    const [unknownMetric, malformedId] = await Promise.all([
      runAqm(['monitoring', 'set', id, '--metric', 'no_such_metric'], svc.env),
      runInProcess(['traces', 'get', 'not-a-uuid', 'abc'], svc.env),
    ]);
    expect(unknownMetric.code).toBe(1);
    const [summary, detail, ...rest] = unknownMetric.stderr.trimEnd().split('\n');
    expect(summary).toMatch(/^aqm: The service rejected the request \(400\): .*Fix the fields below\.$/);
    expect(detail).toMatch(/^ {2}metrics\[0\]\.type: unknown metric type "no_such_metric"/);
    expect(rest).toEqual([]);
    expect(malformedId.code).toBe(1);
    expect(malformedId.stderr).toMatch(
      /^aqm: The service rejected the request \(400\).*\n {2}applicationId: /,
    );
  });
});

describe('Ctrl-C', () => {
  it('interrupts a request in flight: exit code 130, one line', async () => {
    svc.srv.setFaults({ rules: [{ route: 'metrics.eval', hang: true }] });
    svc.srv.resetRequestCounts();
    try {
      const cli = spawnAqm(['metrics', 'eval'], svc.env);
      await until(() => svc.srv.requestCount('metrics.eval') > 0, 'the request to arrive');
      cli.child.kill('SIGINT');
      expect(await cli.exit()).toBe(130);
      expect(cli.stderr()).toBe('aqm: interrupted.\n');
    } finally {
      svc.srv.setFaults(null);
    }
  });
});

describe('usage errors: exit code 2, nothing sent', () => {
  it('unknown commands and flags, bad values, missing configuration or files', async () => {
    svc.srv.resetRequestCounts();
    const [unknownCommand, badFlag, badLimit, badSince, noKey, noFile] = await Promise.all([
      runInProcess(['apps', 'frobnicate'], svc.env),
      runAqm(['traces', 'list', MISSING_APP, '--bogus'], svc.env),
      runInProcess(['apps', 'list', '--limit', '0'], svc.env),
      runInProcess(['traces', 'list', MISSING_APP, '--since', 'yesterday'], svc.env),
      runInProcess(['apps', 'list'], { AQM_BASE_URL: svc.srv.url }),
      runInProcess(['evaluations', 'submit', MISSING_APP, '--file', '/nonexistent/traces.json'], svc.env),
    ]);
    expect(unknownCommand).toMatchObject({ code: 2, stdout: '' });
    expect(oneLineFailure(unknownCommand, 2)).toMatch(
      /^aqm: error: unknown command 'frobnicate'.* Add --help for usage\.$/,
    );
    expect(oneLineFailure(badFlag, 2)).toBe("aqm: error: unknown option '--bogus'. Add --help for usage.");
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toMatch(
      /^aqm: error: option '--limit <n>' argument '0' is invalid\. must be a whole number >= 1\./,
    );
    expect(oneLineFailure(badSince, 2)).toMatch(/^aqm: --since must be a duration before now/);
    expect(oneLineFailure(noKey, 2)).toBe('aqm: No API key: pass --api-key or set AQM_API_KEY.');
    expect(oneLineFailure(noFile, 2)).toMatch(/^aqm: Cannot read \/nonexistent\/traces\.json \(ENOENT\)/);
    expect(svc.srv.requestCount()).toBe(0);
  });
});

describe('help, version and configuration', () => {
  it('--help on every level, --version, and the flags instead of the environment', async () => {
    const [help, nestedHelp, version, flagsOnly] = await Promise.all([
      runAqm(['--help'], svc.env),
      runInProcess(['guardrails', 'evaluations', 'list', '--help'], svc.env),
      runInProcess(['--version'], svc.env),
      runInProcess(['metrics', 'eval', '--json', '--api-key', svc.apiKey, '--base-url', svc.srv.url], {}),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes:');
    expect(help.stdout).toMatch(/^ {2}apply \[options\] <file>/m);
    expect(nestedHelp.code).toBe(0);
    expect(nestedHelp.stdout).toMatch(/^Usage: aqm guardrails evaluations list \[options\] <app-id>/);
    expect(nestedHelp.stdout).toContain('--since <when>');
    expect(version).toEqual({ code: 0, stdout: `${AQM_VERSION}\n`, stderr: '' });
    expect(flagsOnly.code).toBe(0);
    expect(JSON.parse(flagsOnly.stdout)).toEqual(await svc.client.metrics.eval());
  });
});
