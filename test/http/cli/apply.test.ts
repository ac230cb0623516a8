import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliService, runAqm, runInProcess, startCliService, tempDirWith } from './helpers.js';

let svc: CliService;
beforeAll(async () => {
  svc = await startCliService();
});
afterAll(async () => {
  await svc?.close();
});

function yamlConfig(name: string, threshold: number): string {
  return `# configuration as code
application:
  name: ${name}
  description: Answers customer questions
monitoring:
  metrics:
    - type: answer_relevance
      threshold: ${threshold}
    - type: toxicity
  securityPurpose: Customer support
guardrails:
  enable_guard_rails: true
  input_validators:
    - type: prompt-injection
      on_fail: fail
`;
}

async function appNamed(name: string) {
  const { data } = await svc.client.applications.list({ search: name });
  return data.find((a) => a.name === name);
}

describe('aqm apply', () => {
  it('dry-run shows the creation and saves nothing; apply creates; a second apply has no changes', async () => {
    const name = `cli-apply-${Date.now()}`;
    const dir = tempDirWith({ 'aqm.config.yaml': yamlConfig(name, 0.7) });

    const dry = await runAqm(['apply', 'aqm.config.yaml', '--dry-run'], svc.env, undefined, dir);
    expect(dry.code).toBe(0);
    expect(dry.stdout.split('\n')[0]).toBe(`Application "${name}" does not exist: it would be created.`);
    expect(dry.stdout).toContain(
      '+ monitoring: {"metrics":[{"type":"answer_relevance","threshold":0.7},{"type":"toxicity"}]',
    );
    expect(dry.stderr).toBe('Dry run: nothing was saved.\n');
    expect(await appNamed(name)).toBeUndefined();

    const applied = await runAqm(['apply', 'aqm.config.yaml'], svc.env, undefined, dir);
    expect(applied.code).toBe(0);
    expect(applied.stdout.split('\n')[0]).toBe(`Application "${name}" does not exist: it was created.`);
    const app = await appNamed(name);
    expect(app?.description).toBe('Answers customer questions');
    const detail = await svc.client.applications.get(app?.id as string);
    expect(detail.monitoring.metrics).toEqual([
      { type: 'answer_relevance', threshold: 0.7 },
      { type: 'toxicity' },
    ]);
    expect(detail.monitoring.securityPurpose).toBe('Customer support');
    expect(detail.guardrails).toEqual({
      enable_guard_rails: true,
      input_validators: [{ type: 'prompt-injection', on_fail: 'fail' }],
      output_validators: [],
    });
    expect(applied.stderr).toBe(`Saved application, monitoring, guardrails of application ${app?.id}.\n`);

    const again = await runInProcess(['apply', 'aqm.config.yaml'], svc.env, { cwd: dir });
    expect([again.code, again.stdout]).toEqual([0, `Application "${name}" (${app?.id}):\nNo changes.\n`]);
  });

  it('shows the difference against the service, then saves it; --dry-run leaves it', async () => {
    const name = `cli-diff-${Date.now()}`;
    const dir = tempDirWith({ 'a.yaml': yamlConfig(name, 0.7), 'b.yaml': yamlConfig(name, 0.9) });
    expect((await runInProcess(['apply', 'a.yaml'], svc.env, { cwd: dir })).code).toBe(0);
    const app = await appNamed(name);
    await svc.client.guardrails.update(app?.id as string, { enable_guard_rails: false });

    const dry = await runInProcess(['apply', 'b.yaml', '--dry-run'], svc.env, { cwd: dir });
    expect(dry.stdout.split('\n').slice(1, -1)).toEqual([
      '~ monitoring.metrics[0].threshold: 0.7 → 0.9',
      '~ guardrails.enable_guard_rails: false → true',
    ]);
    expect((await svc.client.monitoring.get(app?.id as string)).metrics[0]).toEqual({
      type: 'answer_relevance',
      threshold: 0.7,
    });

    const applied = await runInProcess(['apply', 'b.yaml', '--json'], svc.env, { cwd: dir });
    expect(JSON.parse(applied.stdout)).toEqual({
      application: { id: app?.id, name },
      create: false,
      dryRun: false,
      changes: [
        { path: 'monitoring.metrics[0].threshold', kind: 'change', before: 0.7, after: 0.9 },
        { path: 'guardrails.enable_guard_rails', kind: 'change', before: false, after: true },
      ],
      saved: ['monitoring', 'guardrails'],
    });
    expect((await svc.client.monitoring.get(app?.id as string)).metrics[0]).toEqual({
      type: 'answer_relevance',
      threshold: 0.9,
    });
    expect((await svc.client.guardrails.get(app?.id as string)).enable_guard_rails).toBe(true);
  });

  it('accepts JSON files and stdin', async () => {
    const name = `cli-json-apply-${Date.now()}`;
    const json = JSON.stringify(
      { application: { name }, monitoring: { metrics: [{ type: 'latency', maxLatencyMs: 1000 }] } },
      null,
      2,
    );
    const dir = tempDirWith({ 'aqm.config.json': json });
    expect((await runInProcess(['apply', 'aqm.config.json'], svc.env, { cwd: dir })).code).toBe(0);
    const app = await appNamed(name);
    expect((await svc.client.monitoring.get(app?.id as string)).metrics).toEqual([
      { type: 'latency', maxLatencyMs: 1000 },
    ]);
    const fromStdin = await runAqm(['apply', '-', '--dry-run'], svc.env, json);
    expect(fromStdin.stdout).toBe(`Application "${name}" (${app?.id}):\nNo changes.\n`);
  });

  it('an invalid YAML file gets every error at its line, and nothing is sent', async () => {
    const name = `cli-invalid-${Date.now()}`;
    const dir = tempDirWith({
      'bad.yaml': `application:
  name: ${name}
monitoring:
  metrics:
    - type: answer_relevance
      threshold: high
    - type: ""
  extra: 1
guardrails:
  input_validators:
    - type: pii
      on_fail: explode
`,
    });
    svc.srv.resetRequestCounts();
    const run = await runAqm(['apply', 'bad.yaml'], svc.env, undefined, dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'aqm: bad.yaml is invalid (4 problems); nothing was sent. Fix the lines below.',
      '  bad.yaml:6:7: monitoring.metrics[0].threshold: must be a number',
      '  bad.yaml:7:7: monitoring.metrics[1].type: must not be empty',
      '  bad.yaml:8:3: monitoring.extra: is not a known field',
      '  bad.yaml:12:7: guardrails.input_validators[0].on_fail: must be one of fail, mask, filter',
    ]);
    expect(svc.srv.requestCount()).toBe(0);
  });

  it("the service's errors[] are mapped back to the lines of a JSON file", async () => {
    const name = `cli-rejected-${Date.now()}`;
    await svc.client.applications.create({ name });
    const dir = tempDirWith({
      'aqm.config.json': `{
  "application": { "name": "${name}" },
  "monitoring": {
    "metrics": [
      { "type": "answer_relevance" },
      { "type": "no_such_metric" }
    ]
  },
  "guardrails": {
    "output_validators": [{ "type": "prompt-injection", "on_fail": "fail" }]
  }
}`,
    });
    const run = await runAqm(['apply', 'aqm.config.json'], svc.env, undefined, dir);
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`aqm: The service rejected monitoring of aqm.config.json (400).`);
    expect(lines[1]).toMatch(
      /^ {2}aqm\.config\.json:6:9: monitoring\.metrics\[1\]\.type: unknown metric type "no_such_metric"/,
    );
    expect(lines).toHaveLength(2);
  });

  it('a syntax error names the line', async () => {
    const dir = tempDirWith({
      'broken.json': '{\n  "application": { "name": "x" },\n  "monitoring": [1,\n}\n',
    });
    const run = await runInProcess(['apply', 'broken.json'], svc.env, { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^aqm: broken\.json is not valid JSON or YAML\. Fix the syntax below\.\n {2}broken\.json:4:\d+: /,
    );
  });
});
