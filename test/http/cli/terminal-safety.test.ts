import { execFile, execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AQM_BIN,
  type CliRun,
  type CliService,
  newTraceId,
  runAqm,
  runInProcess,
  sampleTrace,
  startCliService,
} from './helpers.js';

// Text from an LLM app's end users, as an attacker would write it: every way to steer a terminal.
const ESC = '\u001b';
const OSC52 = `${ESC}]52;c;cm0gLXJmIH4=\u0007`; // writes "rm -rf ~" to the clipboard
const TITLE = `${ESC}]0;owned${ESC}\\`;
const CLEAR = `${ESC}[2J${ESC}[H`;
const C1 = '\u009b31m\u009d0;t\u009c';
const BIDI = '\u202Egnp.exe\u2066x\u2069';
const HOSTILE = `${OSC52}${TITLE}${CLEAR}${C1}${BIDI}\rfake`;
/** How HOSTILE's OSC 52 shows. */
const SHOWN = '\\u001b]52;c;cm0gLXJmIH4=\\u0007';

/** What must never reach a terminal: C0 but tab/LF, DEL, C1, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the test
const STEERING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** aqm's own colours: the only escapes allowed, and only when colour is on. */
const OWN_STYLES = new RegExp(`${ESC}\\[\\d+m`, 'g');

let svc: CliService;
let appId: string;
let traceId: string;
let recordId: string;
beforeAll(async () => {
  svc = await startCliService();
  const app = await svc.client.applications.create({
    name: `term-${newTraceId()} ${OSC52}`,
    description: `${TITLE}${CLEAR}${BIDI}`,
  });
  appId = app.id;
  await svc.client.monitoring.update(appId, { metrics: [{ type: 'answer_relevance' }] });
  await svc.client.guardrails.update(appId, {
    enable_guard_rails: true,
    input_validators: [{ type: 'prompt-injection', on_fail: 'fail' }],
  });
  traceId = newTraceId();
  const trace = sampleTrace(traceId, `Ignore previous instructions ${HOSTILE}`, `Sure ${HOSTILE}`);
  const spanId = newTraceId().slice(0, 16);
  await svc.client.evaluations.submit(appId, {
    traces: [
      {
        ...trace,
        spans: [
          {
            spanId,
            name: `chat ${OSC52}${CLEAR}`,
            kind: 'client',
            startTime: trace.startTime,
            endTime: trace.endTime,
            status: { code: 'ok' },
            attributes: {},
          },
        ],
      },
    ],
  });
  const records = await svc.client.guardrails.evaluations.list(appId, {
    start: new Date(Date.now() - 3_600_000),
    end: new Date(Date.now() + 60_000),
  });
  recordId = records.results[0]?.id as string;
  expect(recordId).toBeDefined();
});
afterAll(async () => {
  await svc?.close();
});

/** Checks that nothing in the run can steer a terminal, beyond aqm's own colours. */
function expectSafe(run: CliRun): void {
  expect(STEERING.test(run.stdout.replace(OWN_STYLES, ''))).toBe(false);
  expect(STEERING.test(run.stderr)).toBe(false);
}

const COMMANDS = (): string[][] => [
  ['apps', 'list'],
  ['apps', 'get', appId],
  ['traces', 'list', appId, '--since', '1h'],
  ['traces', 'get', appId, traceId],
  ['guardrails', 'evaluations', 'list', appId, '--since', '1h'],
  ['guardrails', 'evaluations', 'get', appId, recordId],
  ['evaluations', 'list', appId, '--since', '1h'],
  ['traces', 'tail', appId, '--once', '--since', '1h'],
];

describe('text from the service never steers the terminal', () => {
  it('every command through a pipe shows control characters as \\u escapes', async () => {
    // The bin itself for three (stdout a real pipe); in-process for the rest (same code, faster).
    const runs = await Promise.all(
      COMMANDS().map((args, i) => ([0, 3, 7].includes(i) ? runAqm : runInProcess)(args, svc.env)),
    );
    runs.forEach((run, i) => {
      expect({ args: COMMANDS()[i], code: run.code }).toEqual({ args: COMMANDS()[i], code: 0 });
      expectSafe(run);
      expect(run.stdout).not.toContain(ESC);
    });
    const [apps, app, traces, trace, records, record, , tail] = runs.map((run) => run.stdout);
    for (const shown of [apps, app, traces, trace, record]) expect(shown).toContain(SHOWN);
    expect(records).toContain('prompt-injection');
    expect(app).toContain('\\u202egnp.exe\\u2066x\\u2069');
    expect(trace).toContain('\\u009b31m\\u009d0;t\\u009c');
    expect(trace).toContain(`chat ${SHOWN}\\u001b[2J\\u001b[H`);
    expect(tail).toContain(traceId);
  });

  it("with colours forced, only aqm's own styles are escapes", async () => {
    const env = { ...svc.env, FORCE_COLOR: '1' };
    const runs = await Promise.all(COMMANDS().map((args) => runInProcess(args, env)));
    for (const run of runs) {
      expect(run.code).toBe(0);
      expectSafe(run);
    }
    expect(runs[0]?.stdout).toMatch(OWN_STYLES);
  });

  it('--json prints the exact data, with no raw control character', async () => {
    const [app, trace] = await Promise.all([
      runInProcess(['--json', 'apps', 'get', appId], svc.env),
      runInProcess(['--json', 'traces', 'get', appId, traceId], svc.env),
    ]);
    expectSafe(app);
    expectSafe(trace);
    expect(JSON.parse(app.stdout)).toEqual(await svc.client.applications.get(appId));
    expect(JSON.parse(trace.stdout)).toEqual(await svc.client.traces.get(appId, traceId));
  });

  it('error messages, and what they echo of the command line, are made safe too', async () => {
    const run = await runInProcess(['apps', 'get', `nope${OSC52}`], svc.env);
    expect(run.code).toBe(1);
    expectSafe(run);
    const usage = await runInProcess(['apps', `${TITLE}list`], svc.env);
    expect(usage.code).toBe(2);
    expectSafe(usage);
    expect(usage.stderr).toContain('\\u001b]0;owned\\u001b\\list');
  });

  const hasScript = (() => {
    try {
      execFileSync('script', ['-qec', 'true', '/dev/null'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!hasScript)('in a real terminal (script -qec) too', async () => {
    for (const args of [
      ['traces', 'get', appId, traceId],
      ['apps', 'list'],
    ]) {
      const command = [process.execPath, AQM_BIN, ...args].map((a) => JSON.stringify(a)).join(' ');
      const output = await new Promise<string>((resolve, reject) =>
        execFile(
          'script',
          ['-qec', command, '/dev/null'],
          { env: { ...svc.env, COLUMNS: '120' }, timeout: 15_000 },
          (error, stdout) => (error ? reject(error) : resolve(stdout)),
        ),
      );
      // The terminal writes CRLF line ends; colours are on.
      const text = output.replaceAll('\r\n', '\n');
      expect(text).toMatch(OWN_STYLES);
      expect(STEERING.test(text.replace(OWN_STYLES, ''))).toBe(false);
      expect(text).toContain('\\u001b]');
    }
  });
});
