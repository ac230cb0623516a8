import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliService,
  newTraceId,
  runAqm,
  runInProcess,
  sampleTrace,
  startCliService,
  tempDirWith,
} from './helpers.js';

let svc: CliService;
beforeAll(async () => {
  svc = await startCliService();
});
afterAll(async () => {
  await svc?.close();
});

/** Runs the bin, expecting success, and returns stdout. */
async function ok(args: string[], env: Record<string, string> = svc.env, input?: string): Promise<string> {
  const run = await runAqm(args, env, input);
  expect(run.stderr.includes('aqm:') ? run.stderr : '').toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

// The tests use applications of their own, so they run side by side: fewer seconds of waiting on Node start-ups.
describe.concurrent('aqm apps', () => {
  it('create prints the id; get, list and update show the application', async () => {
    const name = `cli-apps-${Date.now()}`;
    const id = (await ok(['apps', 'create', name, '--description', 'First bot'])).trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await svc.client.applications.get(id)).name).toBe(name);

    const [list, get] = await Promise.all([ok(['apps', 'list', '--search', name]), ok(['apps', 'get', id])]);
    expect(list.split('\n')[0]).toMatch(/^ID\s+NAME\s+DESCRIPTION\s+CREATED$/);
    expect(list).toContain(id);
    expect(list).toContain('First bot');

    expect(get).toMatch(new RegExp(`^id:\\s+${id}$`, 'm'));
    expect(get).toMatch(/^guardrails:\s+disabled$/m);

    const updated = await ok(['apps', 'update', id, '--name', `${name}-2`, '--description', 'Renamed']);
    expect(updated).toMatch(new RegExp(`^name:\\s+${name}-2$`, 'm'));
    expect((await svc.client.applications.get(id)).description).toBe('Renamed');
  });

  it('--json prints the raw data', async () => {
    const id = await svc.createApp('cli-json');
    const run = await runInProcess(['--json', 'apps', 'get', id], svc.env);
    const json = JSON.parse(run.stdout) as { id: string; monitoring: unknown };
    expect(json).toEqual(await svc.client.applications.get(id));
  });

  it('lists page automatically; --limit, --page and --all behave alike', async () => {
    const prefix = `cli-page-${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 25; i++)
      ids.push((await svc.client.applications.create({ name: `${prefix}-${i}` })).id);
    const newestFirst = [...ids].reverse();
    // Variations of one command run in-process (same code as the bin, without starting Node each time).
    const [allRun, pageRun, run] = await Promise.all([
      runInProcess(['apps', 'list', '--search', prefix, '--all', '--json'], svc.env),
      runInProcess(['apps', 'list', '--search', prefix, '--limit', '10', '--page', '3', '--json'], svc.env),
      runInProcess(['apps', 'list', '--search', prefix], svc.env),
    ]);
    const all = JSON.parse(allRun.stdout) as { id: string }[];
    expect(all.map((a) => a.id)).toEqual(newestFirst);
    const page = JSON.parse(pageRun.stdout) as { id: string }[];
    expect(page.map((a) => a.id)).toEqual(newestFirst.slice(20, 25));
    expect(pageRun.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toHaveLength(21); // header + 20 by default
    expect(run.stderr).toBe('Showing 20 of 25; use --limit N or --all for more.\n');
  });
});

describe.concurrent('aqm monitoring, guardrails and catalogs', () => {
  it('monitoring set from flags and from a file; get shows it', async () => {
    const id = await svc.createApp('cli-mon');
    const set = await ok([
      'monitoring',
      'set',
      id,
      '--metric',
      'answer_relevance:threshold=0.7',
      '--metric',
      'toxicity',
      '--plugin',
      'harmful:hate',
      '--purpose',
      'Support',
    ]);
    expect(set).toMatch(/^answer_relevance\s+threshold=0\.7$/m);
    expect(await svc.client.monitoring.get(id)).toMatchObject({
      metrics: [{ type: 'answer_relevance', threshold: 0.7 }, { type: 'toxicity' }],
      plugins: { harmful: ['harmful:hate'] },
      securityPurpose: 'Support',
    });
    const dir = tempDirWith({ 'monitoring.yaml': 'metrics:\n  - type: latency\n    maxLatencyMs: 2000\n' });
    expect(
      (await runInProcess(['monitoring', 'set', id, '--file', 'monitoring.yaml'], svc.env, { cwd: dir }))
        .code,
    ).toBe(0);
    const get = await ok(['monitoring', 'get', id]);
    expect(get).toMatch(/^latency\s+maxLatencyMs=2000$/m);
    expect(get).toContain('harmful: harmful:hate');
    expect(get).toMatch(/^purpose: Support$/m);
  });

  it('guardrails set, get and validators', async () => {
    const id = await svc.createApp('cli-guard');
    await ok([
      'guardrails',
      'set',
      id,
      '--enable',
      '--input',
      'prompt-injection:fail',
      '--output',
      'pii:mask:entities=EMAIL_ADDRESS|PHONE_NUMBER',
    ]);
    expect(await svc.client.guardrails.get(id)).toEqual({
      enable_guard_rails: true,
      input_validators: [{ type: 'prompt-injection', on_fail: 'fail' }],
      output_validators: [
        { type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL_ADDRESS', 'PHONE_NUMBER'] } },
      ],
    });
    const [get, validators] = await Promise.all([
      ok(['guardrails', 'get', id]),
      ok(['guardrails', 'validators']),
    ]);
    expect(get).toContain('Guardrails: enabled');
    expect(get).toMatch(/^output\s+pii\s+mask\s+\{"entities":\["EMAIL_ADDRESS","PHONE_NUMBER"\]\}$/m);
    expect(validators).toMatch(/^prompt-injection\s+input\s+threshold\s/m);
  });

  it('guardrails set says what enabling and disabling mean for the next traces', async () => {
    const id = await svc.createApp('cli-guard-off');
    const on = await runInProcess(['guardrails', 'set', id, '--enable'], svc.env);
    expect(on.code).toBe(0);
    expect(on.stderr).toContain('The service runs them on traces submitted from now on');
    const off = await runInProcess(['guardrails', 'set', id, '--disable'], svc.env);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('Guardrails: disabled');
    expect(off.stderr).toContain(
      'Saved. Guardrails are off: traces submitted from now on are not checked.\n',
    );
    expect(off.stderr).not.toContain('runs them');
  });

  it('metrics eval and security, widgets list', async () => {
    const [evalCatalog, security, widgets] = await Promise.all([
      ok(['metrics', 'eval']),
      ok(['metrics', 'security', '--json']),
      ok(['widgets', 'list']),
    ]);
    expect(evalCatalog).toMatch(/^answer_relevance\s+threshold\s/m);
    expect(JSON.parse(security)).toEqual(await svc.client.metrics.security());
    expect(widgets).toMatch(/^trace-volume\s+Trace volume\s/m);
  });
});

describe.concurrent('aqm evaluations, traces and guardrail records', () => {
  it('submit from a file, then list and read traces, scores and guardrail records', async () => {
    const id = await svc.createApp('cli-traces');
    await svc.client.monitoring.update(id, {
      metrics: [{ type: 'answer_relevance', threshold: 0.5 }, { type: 'toxicity' }],
    });
    await svc.client.guardrails.update(id, {
      enable_guard_rails: true,
      output_validators: [{ type: 'pii', on_fail: 'mask' }],
    });
    const good = newTraceId();
    const bad = newTraceId();
    const dir = tempDirWith({
      'traces.json': JSON.stringify({
        traces: [
          sampleTrace(good, 'What is the refund policy?', 'The refund policy allows returns within 30 days.'),
          sampleTrace(bad, 'What is the refund policy?', 'Ask ann@example.com, idiot.', 'error'),
        ],
      }),
    });
    const submitted = await runAqm(['evaluations', 'submit', id, '--file', `${dir}/traces.json`], svc.env);
    expect(submitted.code).toBe(0);
    expect(submitted.stdout).toBe(`${good}\n${bad}\n`);
    expect(submitted.stderr).toBe('Accepted 2 traces.\n');

    const [record] = (
      await svc.client.guardrails.evaluations.list(id, {
        start: new Date(Date.now() - 3_600_000),
        end: new Date(),
        passStatus: 'error',
      })
    ).results;
    const [traces, onlyErrors, trace, scores, records, detail] = await Promise.all([
      ok(['traces', 'list', id, '--since', '1h']),
      runInProcess(
        ['traces', 'list', id, '--status', 'error', '--since', '2026-01-01', '--until', 'now', '--json'],
        svc.env,
      ).then((r) => r.stdout),
      ok(['traces', 'get', id, good]),
      ok(['evaluations', 'list', id, '--trace', bad, '--metric', 'toxicity']),
      ok(['guardrails', 'evaluations', 'list', id, '--status', 'error', '--since', '30m']),
      ok(['guardrails', 'evaluations', 'get', id, record?.id as string]),
    ]);
    expect(traces.split('\n')[0]).toMatch(/^TRACE\s+START\s+DURATION\s+STATUS\s+SPANS\s+PROMPT$/);
    expect(traces).toMatch(
      new RegExp(`^${bad}\\s.*\\s250 ms\\s+error\\s+0\\s+What is the refund policy\\?$`, 'm'),
    );
    expect((JSON.parse(onlyErrors) as { traceId: string }[]).map((t) => t.traceId)).toEqual([bad]);
    expect(trace).toMatch(/^answer_relevance\s+1\.00 ✓\s+0\.5\s/m);
    expect(scores.trim().split('\n')).toHaveLength(2);
    expect(scores).toMatch(new RegExp(`^${bad}\\s+toxicity\\s+0\\.40 ✗`, 'm'));
    expect(records).toMatch(
      new RegExp(`\\soutput\\s+fail\\s+pii\\s+${bad}\\s+Ask \\[EMAIL\\], idiot\\.$`, 'm'),
    );
    expect(detail).toMatch(/^content if enforced:\s+Ask \[EMAIL\], idiot\.$/m);
    expect(detail).toMatch(
      /^pii\s+fail\s+1\.00\s+mask\s+would mask\s+found .*; the findings would be masked$/m,
    );

    // pass/fail as the table says them; and the outcomes are said to be recorded after the fact.
    const failed = await runInProcess(
      ['guardrails', 'evaluations', 'list', id, '--status', 'fail', '--since', '30m'],
      svc.env,
    );
    expect(failed.stdout).toBe(records);
    expect(failed.stderr).toContain('after the model call');
    expect(failed.stderr).toContain('nothing was blocked or changed in the app');
  });

  it('shows times in local time (TZ); --json keeps the service UTC timestamps', async () => {
    const id = await svc.createApp('cli-tz');
    await svc.client.evaluations.submit(id, {
      traces: [
        {
          traceId: newTraceId(),
          prompt: 'p',
          response: 'r',
          startTime: '2026-01-15T23:30:00.000Z',
          endTime: '2026-01-15T23:30:01.000Z',
          status: 'success',
        },
      ],
    });
    const tokyo = await ok(['traces', 'list', id], { ...svc.env, TZ: 'Asia/Tokyo' });
    expect(tokyo).toContain('2026-01-16 08:30:00');
    const json = await runInProcess(['traces', 'list', id, '--json'], svc.env);
    expect((JSON.parse(json.stdout) as { startTime: string }[])[0]?.startTime).toBe(
      '2026-01-15T23:30:00.000Z',
    );
  });
});
