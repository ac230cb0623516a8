import type { ApplicationDetail } from '@aqm/client';
import { describe, expect, it } from 'vitest';
import { validateApplyConfig } from '../src/apply/apply-config.js';
import { errorLines, parseErrorPath, parseLocatedFile } from '../src/apply/error-lines.js';
import { monitoringAfter, planApply } from '../src/apply/plan.js';
import { createPalette } from '../src/render/colors.js';
import { diffValues, renderChanges } from '../src/render/diff.js';
import { CliUsageError } from '../src/usage-error.js';

const YAML = `application:
  name: support-bot
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
`;

const JSON_TEXT = `{
  "application": { "name": "bot" },
  "monitoring": {
    "metrics": [
      { "type": "answer_relevance" },
      { "type": "toxicity", "threshold": "x" }
    ]
  }
}`;

describe('parseErrorPath', () => {
  it('splits keys and indexes', () => {
    expect(parseErrorPath('monitoring.metrics[1].type')).toEqual(['monitoring', 'metrics', 1, 'type']);
    expect(parseErrorPath('plugins.harmful[0]')).toEqual(['plugins', 'harmful', 0]);
    expect(parseErrorPath('$')).toEqual([]);
  });
});

describe('locating errors in the file', () => {
  it('maps YAML paths to the line and column of the key or item', async () => {
    const file = await parseLocatedFile(YAML, 'aqm.yaml');
    expect(file.locate('monitoring.metrics[0].threshold')).toEqual({ line: 6, col: 7 });
    expect(file.locate('monitoring.metrics[1]')).toEqual({ line: 7, col: 7 });
    expect(file.locate('monitoring.extra')).toEqual({ line: 8, col: 3 });
    expect(file.locate('guardrails.input_validators[0].on_fail')).toEqual({ line: 12, col: 7 });
  });

  it('points a missing field at its deepest present parent', async () => {
    const file = await parseLocatedFile(YAML, 'aqm.yaml');
    expect(file.locate('guardrails.input_validators[0].config.threshold')).toEqual({ line: 11, col: 7 });
    expect(file.locate('guardrails.output_validators')).toEqual({ line: 9, col: 1 });
  });

  it('maps JSON paths too (yaml reads JSON)', async () => {
    const file = await parseLocatedFile(JSON_TEXT, 'aqm.json');
    expect(file.locate('monitoring.metrics[1].threshold')).toEqual({ line: 6, col: 29 });
    expect(file.value).toEqual(JSON.parse(JSON_TEXT));
  });

  it('reports syntax errors and duplicate keys with their position', async () => {
    await expect(parseLocatedFile('application:\n  name: [x\n', 'bad.yaml')).rejects.toThrow(CliUsageError);
    const duplicate = await parseLocatedFile('{\n  "a": 1,\n  "a": 2\n}', 'dup.json').catch(
      (err: unknown) => err,
    );
    expect(duplicate).toBeInstanceOf(CliUsageError);
    expect((duplicate as CliUsageError).lines[0]).toMatch(/^ {2}dup\.json:3:\d+: Map keys must be unique$/);
  });
});

describe('validateApplyConfig', () => {
  it('checks every section with the wire schemas and reports file paths', async () => {
    const file = await parseLocatedFile(YAML, 'aqm.yaml');
    const { config, errors } = validateApplyConfig(file.value);
    expect(config).toBeUndefined();
    expect(errors.map((e) => e.path)).toEqual([
      'monitoring.metrics[0].threshold',
      'monitoring.metrics[1].type',
      'monitoring.extra',
      'guardrails.input_validators[0].on_fail',
    ]);
    expect(errorLines(file, 'aqm.yaml', errors)[0]).toBe(
      '  aqm.yaml:6:7: monitoring.metrics[0].threshold: must be a number',
    );
  });

  it('requires the application and refuses unknown top-level keys', () => {
    expect(validateApplyConfig({ monitoring: { metrics: [] }, name: 'x' }).errors).toEqual([
      { path: 'name', message: 'is not a known field' },
      { path: 'application', message: 'is required' },
    ]);
    expect(validateApplyConfig([]).errors[0]?.path).toBe('$');
    expect(validateApplyConfig({ application: { name: '  ' } }).errors[0]?.path).toBe('application.name');
  });

  it('returns the config as written, with the name trimmed', () => {
    const { config, errors } = validateApplyConfig({
      application: { name: ' bot ' },
      monitoring: { metrics: [{ type: 'latency', maxLatencyMs: 2000 }] },
    });
    expect(errors).toEqual([]);
    expect(config).toEqual({
      application: { name: 'bot' },
      monitoring: { metrics: [{ type: 'latency', maxLatencyMs: 2000 }] },
    });
  });
});

describe('diffValues', () => {
  it('lists added, removed and changed paths', () => {
    expect(
      diffValues(
        { metrics: [{ type: 'a', threshold: 0.5 }, { type: 'b' }], purpose: 'x', gone: 1 },
        { metrics: [{ type: 'a', threshold: 0.7 }], purpose: 'x', added: true },
      ),
    ).toEqual([
      { path: 'metrics[0].threshold', kind: 'change', before: 0.5, after: 0.7 },
      { path: 'metrics[1]', kind: 'remove', before: { type: 'b' } },
      { path: 'gone', kind: 'remove', before: 1 },
      { path: 'added', kind: 'add', after: true },
    ]);
  });

  it('finds nothing between equal values', () => {
    expect(diffValues({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });

  it('renders +, - and ~ lines, coloured when asked', () => {
    const changes = diffValues({ a: 1, b: 2 }, { a: 3, c: 4 }, 'x');
    expect(renderChanges(changes, createPalette(false))).toEqual(['~ x.a: 1 → 3', '- x.b: 2', '+ x.c: 4']);
    expect(renderChanges(changes, createPalette(true))[0]).toBe('\u001b[33m~ x.a: 1 → 3\u001b[39m');
  });
});

const current: ApplicationDetail = {
  id: 'app-1',
  name: 'bot',
  description: 'old',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  monitoring: {
    metrics: [{ type: 'answer_relevance', threshold: 0.5 }],
    plugins: {},
    securityPurpose: 'Support',
    securityConfig: { purpose: 'Support', userTypes: 'customers' },
    logLocation: '/applications/app-1/traces',
  },
  guardrails: { enable_guard_rails: false, input_validators: [], output_validators: [] },
};

describe('planApply', () => {
  it('follows the PUT rules: omitted securityConfig keys stay, securityPurpose wins', () => {
    const next = monitoringAfter(current.monitoring, {
      securityConfig: { purpose: 'A', competitors: 'Z' },
      securityPurpose: 'B',
    });
    expect(next.securityPurpose).toBe('B');
    expect(next.securityConfig).toEqual({ purpose: 'B', userTypes: 'customers', competitors: 'Z' });
    expect(next.metrics).toBe(current.monitoring.metrics);
  });

  it('plans only what differs from the service', () => {
    const plan = planApply(
      {
        application: { name: 'bot', description: 'old' },
        monitoring: { metrics: [{ type: 'answer_relevance', threshold: 0.7 }] },
        guardrails: { enable_guard_rails: false },
      },
      current,
    );
    expect(plan).toEqual({
      create: false,
      changes: [{ path: 'monitoring.metrics[0].threshold', kind: 'change', before: 0.5, after: 0.7 }],
      updateDescription: false,
      updateMonitoring: true,
      updateGuardrails: false,
    });
  });

  it('plans a creation with every section as an addition', () => {
    const plan = planApply(
      { application: { name: 'new' }, guardrails: { enable_guard_rails: true } },
      undefined,
    );
    expect(plan.create).toBe(true);
    expect(plan.changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['add application', 'add guardrails']);
    expect(plan.updateGuardrails).toBe(true);
    expect(plan.updateMonitoring).toBe(false);
  });
});
