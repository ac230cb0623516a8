import { spawn } from 'node:child_process';
import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { AQM_BIN, type CliService, runAqm, startCliService, tempDirWith } from './helpers.js';

let svc: CliService;
beforeAll(async () => {
  svc = await startCliService();
});
afterAll(async () => {
  await svc?.close();
});

const BILLION_LAUGHS = (name: string) => `application:
  name: ${name}
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
`;

describe.concurrent('input files and stdin are bounded', () => {
  it('apply on a 53 MB YAML file and submit on a 39 MB JSON file stop at once: exit 2', async () => {
    const dir = tempDirWith({ 'big.yaml': 'application:\n  name: big\n', 'big.json': '{"traces": [' });
    // Sparse files: the size is what matters, as it is checked before anything is read.
    truncateSync(join(dir, 'big.yaml'), 53_000_000);
    truncateSync(join(dir, 'big.json'), 39_000_000);
    const [apply, submit] = await Promise.all([
      runAqm(['apply', join(dir, 'big.yaml')], svc.env),
      runAqm(['evaluations', 'submit', 'any-app', '--file', join(dir, 'big.json')], svc.env),
    ]);
    expect(apply.code).toBe(2);
    expect(apply.stderr).toMatch(
      /^aqm: .*big\.yaml is larger than 10 MiB \(50\.5 MiB\), the most aqm reads; nothing was sent\./,
    );
    expect(submit.code).toBe(2);
    expect(submit.stderr).toMatch(/big\.json is larger than 10 MiB \(37\.2 MiB\)/);
  });

  it('evaluations submit --file - stops reading endless stdin past 10 MiB: exit 2', async () => {
    const child = spawn(process.execPath, [AQM_BIN, 'evaluations', 'submit', 'any-app', '--file', '-'], {
      env: svc.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const chunk = Buffer.alloc(65_536, 0x20);
    const endless = new Readable({
      read() {
        this.push(chunk);
      },
    });
    child.stdin.on('error', () => {}); // EPIPE once the CLI stops reading
    endless.pipe(child.stdin);
    const code = await new Promise((resolve) => child.once('exit', resolve));
    endless.destroy();
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^aqm: The input on stdin is larger than 10 MiB, the most aqm reads; nothing was sent\./,
    );
  });

  it('a billion-laughs file is a bad input file with its line: exit 2, nothing created', async () => {
    const name = `bomb-${Date.now()}`;
    const dir = tempDirWith({ 'bomb.yaml': BILLION_LAUGHS(name) });
    const run = await runAqm(['apply', 'bomb.yaml'], svc.env, undefined, dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^aqm: bomb\.yaml:6:8: not valid input: its aliases expand to too many nodes .*Nothing was sent\.\n$/,
    );
    const stdin = await runAqm(
      ['evaluations', 'submit', 'any-app', '--file', '-'],
      svc.env,
      BILLION_LAUGHS(name),
    );
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toMatch(/^aqm: <stdin>:6:8: not valid input/);
    expect((await svc.client.applications.list({ search: name })).data).toEqual([]);
  });
});
