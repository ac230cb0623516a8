import {
  configFieldTemplateSchema,
  GUARDRAIL_STAGES,
  guardrailComponentSchema,
  guardrailEvaluationPageSchema,
  guardrailEvaluationSchema,
  guardrailEvaluationSummarySchema,
  guardrailsConfigSchema,
  listGuardrailEvaluationsQuerySchema,
  ON_FAIL_ACTIONS,
  PASS_STATUSES,
  updateGuardrailsBodySchema,
  validatorCatalogEntrySchema,
  validatorSchema,
} from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import {
  guardrailComponent,
  guardrailEvaluationSummary,
  guardrailsConfig,
  validatorCatalogEntry,
} from './fixtures.js';
import { accepted, rejected } from './parse-helpers.js';

describe('value sets', () => {
  it('match the spec and the contract decisions', () => {
    expect(ON_FAIL_ACTIONS).toEqual(['fail', 'mask', 'filter']);
    expect(GUARDRAIL_STAGES).toEqual(['input', 'output']);
    expect(PASS_STATUSES).toEqual(['success', 'error']);
  });
});

describe('validatorSchema', () => {
  it.each(ON_FAIL_ACTIONS)('accepts on_fail %s, with or without config', (onFail) => {
    expect(accepted(validatorSchema, { type: 'pii', on_fail: onFail })).toEqual({
      type: 'pii',
      on_fail: onFail,
    });
    const withConfig = {
      type: 'pii',
      on_fail: onFail,
      config: { threshold: 0.5, entities: ['EMAIL_ADDRESS'] },
    };
    expect(accepted(validatorSchema, withConfig)).toEqual(withConfig);
  });

  it('requires type and on_fail', () => {
    expect(rejected(validatorSchema, {})).toEqual([
      { path: 'type', message: 'is required' },
      { path: 'on_fail', message: 'is required' },
    ]);
  });

  it('rejects each bad value with its own message', () => {
    expect(
      rejected(validatorSchema, { type: '', on_fail: 'block', config: 'strict', onFail: 'fail' }),
    ).toEqual([
      { path: 'type', message: 'must not be empty' },
      { path: 'on_fail', message: 'must be one of fail, mask, filter' },
      { path: 'config', message: 'must be an object' },
      { path: 'onFail', message: 'is not a known field' },
    ]);
    expect(rejected(validatorSchema, { type: 1, on_fail: 'fail' })).toEqual([
      { path: 'type', message: 'must be a validator type string' },
    ]);
  });
});

describe('guardrailsConfigSchema', () => {
  it('accepts a configuration and requires its three fields', () => {
    expect(accepted(guardrailsConfigSchema, guardrailsConfig())).toEqual(guardrailsConfig());
    expect(rejected(guardrailsConfigSchema, {}).map((e) => e.path)).toEqual([
      'enable_guard_rails',
      'input_validators',
      'output_validators',
    ]);
  });
});

describe('updateGuardrailsBodySchema', () => {
  it('accepts any one field alone', () => {
    expect(accepted(updateGuardrailsBodySchema, { enable_guard_rails: false })).toEqual({
      enable_guard_rails: false,
    });
    expect(accepted(updateGuardrailsBodySchema, { output_validators: [] })).toEqual({
      output_validators: [],
    });
    expect(accepted(updateGuardrailsBodySchema, guardrailsConfig())).toEqual(guardrailsConfig());
  });

  it('requires at least one field, reported at $', () => {
    expect(rejected(updateGuardrailsBodySchema, {})).toEqual([
      {
        path: '$',
        message: 'at least one of enable_guard_rails, input_validators, output_validators must be provided',
      },
    ]);
  });

  it('reports validator errors with indexed paths', () => {
    const body = {
      enable_guard_rails: 'yes',
      input_validators: [{ type: 'pii', on_fail: 'mask' }, { type: 'pii', on_fail: 'block', x: 1 }, {}],
      output_validators: { type: 'pii' },
    };
    expect(rejected(updateGuardrailsBodySchema, body)).toEqual([
      { path: 'enable_guard_rails', message: 'must be a boolean' },
      { path: 'input_validators[1].on_fail', message: 'must be one of fail, mask, filter' },
      { path: 'input_validators[1].x', message: 'is not a known field' },
      { path: 'input_validators[2].type', message: 'is required' },
      { path: 'input_validators[2].on_fail', message: 'is required' },
      { path: 'output_validators', message: 'must be an array of validator objects' },
    ]);
  });

  it('rejects unknown top-level fields', () => {
    expect(rejected(updateGuardrailsBodySchema, { enable_guard_rails: true, enabled: true })).toEqual([
      { path: 'enabled', message: 'is not a known field' },
    ]);
  });
});

describe('validatorCatalogEntrySchema and configFieldTemplateSchema', () => {
  it('accept a catalog entry', () => {
    expect(accepted(validatorCatalogEntrySchema, validatorCatalogEntry())).toEqual(validatorCatalogEntry());
  });

  it.each(['number', 'string', 'boolean', 'string[]'])('accept a %s setting', (type) => {
    expect(accepted(configFieldTemplateSchema, { type, description: 'd' })).toEqual({
      type,
      description: 'd',
    });
  });

  it('reject an unknown stage or setting type', () => {
    const entry = {
      ...validatorCatalogEntry(),
      stages: ['input', 'both'],
      configTemplate: { x: { type: 'object', description: 'd' } },
    };
    expect(rejected(validatorCatalogEntrySchema, entry).map((e) => e.path)).toEqual([
      'stages[1]',
      'configTemplate.x.type',
    ]);
  });
});

describe('guardrail evaluation records', () => {
  const record = () => ({
    ...guardrailEvaluationSummary(),
    prompt: 'Write to me',
    response: 'Write to jane@example.com',
    app_version: '1.2.3',
    environment: 'production',
    cost: 0.0004,
    allComponents: [guardrailComponent()],
  });

  it('accept a component, a list item, a single read and a page', () => {
    expect(accepted(guardrailComponentSchema, guardrailComponent())).toEqual(guardrailComponent());
    const { score: _s, message: _m, ...required } = guardrailComponent();
    expect(accepted(guardrailComponentSchema, required)).toEqual(required);
    expect(accepted(guardrailEvaluationSummarySchema, guardrailEvaluationSummary())).toEqual(
      guardrailEvaluationSummary(),
    );
    expect(accepted(guardrailEvaluationSchema, record())).toEqual(record());
    const page = { results: [guardrailEvaluationSummary()], count: 41, page: 3, limit: 20 };
    expect(accepted(guardrailEvaluationPageSchema, page)).toEqual(page);
  });

  it('reject values outside the value sets', () => {
    expect(
      rejected(guardrailComponentSchema, { ...guardrailComponent(), onFail: 'block' }).map((e) => e.path),
    ).toEqual(['onFail']);
    const summary = { ...guardrailEvaluationSummary(), guardrail_stage: 'both', passStatus: 'ok' };
    expect(rejected(guardrailEvaluationSummarySchema, summary).map((e) => e.path)).toEqual([
      'guardrail_stage',
      'passStatus',
    ]);
  });

  it('require allComponents items to be complete, at indexed paths', () => {
    const { latencyMs: _, ...noLatency } = guardrailComponent();
    const errors = rejected(guardrailEvaluationSchema, {
      ...record(),
      allComponents: [guardrailComponent(), noLatency],
    });
    expect(errors.map((e) => e.path)).toEqual(['allComponents[1].latencyMs']);
  });
});

describe('listGuardrailEvaluationsQuerySchema', () => {
  const range = { start: '2026-01-01T00:00:00Z', end: '2026-01-31T23:59:59+01:00' };

  it('requires start and end, normalises them and defaults page and limit', () => {
    expect(accepted(listGuardrailEvaluationsQuerySchema, range)).toEqual({
      start: '2026-01-01T00:00:00.000Z',
      end: '2026-01-31T22:59:59.000Z',
      page: 1,
      limit: 20,
    });
    expect(rejected(listGuardrailEvaluationsQuerySchema, {})).toEqual([
      { path: 'start', message: 'is required' },
      { path: 'end', message: 'is required' },
    ]);
  });

  it('accepts every filter', () => {
    const query = {
      ...range,
      page: '2',
      limit: '50',
      passStatus: 'error',
      stage: 'input',
      category: 'pii',
      search: 'x',
    };
    expect(accepted(listGuardrailEvaluationsQuerySchema, query)).toEqual({
      start: '2026-01-01T00:00:00.000Z',
      end: '2026-01-31T22:59:59.000Z',
      page: 2,
      limit: 50,
      passStatus: 'error',
      stage: 'input',
      category: 'pii',
      search: 'x',
    });
  });

  it('rejects filters outside their value sets', () => {
    expect(
      rejected(listGuardrailEvaluationsQuerySchema, {
        ...range,
        passStatus: 'ok',
        stage: 'both',
        category: '',
      }),
    ).toEqual([
      { path: 'passStatus', message: 'must be one of success, error' },
      { path: 'stage', message: 'must be one of input, output' },
      { path: 'category', message: 'must not be empty' },
    ]);
  });

  it('rejects end before start', () => {
    expect(rejected(listGuardrailEvaluationsQuerySchema, { start: range.end, end: range.start })).toEqual([
      { path: 'end', message: 'must be on or after start' },
    ]);
  });
});
