import {
  metricSchema,
  monitoringConfigSchema,
  pluginsSchema,
  SECURITY_CONFIG_KEYS,
  securityConfigSchema,
  updateMonitoringBodySchema,
} from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { monitoringConfig } from './fixtures.js';
import { accepted, rejected } from './parse-helpers.js';

describe('monitoringConfigSchema', () => {
  it('accepts a monitoring configuration', () => {
    expect(accepted(monitoringConfigSchema, monitoringConfig())).toEqual(monitoringConfig());
  });

  it('requires its four fields', () => {
    expect(rejected(monitoringConfigSchema, {}).map((e) => e.path)).toEqual([
      'metrics',
      'plugins',
      'securityPurpose',
      'securityConfig',
    ]);
  });
});

describe('metricSchema', () => {
  it('keeps the extra keys a catalog entry allows', () => {
    const metric = { type: 'answer_relevancy', threshold: 0.5, strictness: 2 };
    expect(accepted(metricSchema, metric)).toEqual(metric);
  });

  it('requires a non-empty type and a numeric threshold', () => {
    expect(rejected(metricSchema, { threshold: 'high' })).toEqual([
      { path: 'type', message: 'is required' },
      { path: 'threshold', message: 'must be a number' },
    ]);
    expect(rejected(metricSchema, { type: '' })).toEqual([{ path: 'type', message: 'must not be empty' }]);
    expect(rejected(metricSchema, { type: 3 })).toEqual([{ path: 'type', message: 'must be a string' }]);
  });
});

describe('securityConfigSchema', () => {
  it('accepts every key, each optional', () => {
    const full = Object.fromEntries(SECURITY_CONFIG_KEYS.map((key) => [key, `${key} value`]));
    expect(accepted(securityConfigSchema, full)).toEqual(full);
    expect(accepted(securityConfigSchema, {})).toEqual({});
    expect(SECURITY_CONFIG_KEYS).toHaveLength(11);
  });

  it('rejects a non-string value and an unknown key', () => {
    expect(rejected(securityConfigSchema, { competitors: ['acme'], owner: 'me' })).toEqual([
      { path: 'competitors', message: 'must be a string' },
      { path: 'owner', message: 'is not a known field' },
    ]);
  });
});

describe('pluginsSchema', () => {
  it('accepts plugin ids grouped by category', () => {
    expect(accepted(pluginsSchema, { harmful: ['harmful:hate'], bias: [] })).toEqual({
      harmful: ['harmful:hate'],
      bias: [],
    });
  });

  it('rejects a non-string plugin id at its indexed path', () => {
    expect(rejected(pluginsSchema, { harmful: ['harmful:hate', 7] })).toEqual([
      { path: 'harmful[1]', message: 'must be a plugin id string' },
    ]);
  });
});

describe('updateMonitoringBodySchema', () => {
  it('accepts any one field alone', () => {
    expect(accepted(updateMonitoringBodySchema, { securityPurpose: 'support' })).toEqual({
      securityPurpose: 'support',
    });
    expect(accepted(updateMonitoringBodySchema, { metrics: [] })).toEqual({ metrics: [] });
    expect(accepted(updateMonitoringBodySchema, monitoringConfig())).toEqual(monitoringConfig());
  });

  it('requires at least one field, reported at $', () => {
    expect(rejected(updateMonitoringBodySchema, {})).toEqual([
      {
        path: '$',
        message: 'at least one of metrics, plugins, securityPurpose, securityConfig must be provided',
      },
    ]);
  });

  it('reports nested errors with indexed paths', () => {
    const body = {
      metrics: [{ type: 'answer_relevancy' }, { threshold: 'x' }],
      plugins: { harmful: [1] },
      securityPurpose: 5,
      securityConfig: { purpose: 1, bogus: 'x' },
      extra: true,
    };
    expect(rejected(updateMonitoringBodySchema, body)).toEqual([
      { path: 'metrics[1].type', message: 'is required' },
      { path: 'metrics[1].threshold', message: 'must be a number' },
      { path: 'plugins.harmful[0]', message: 'must be a plugin id string' },
      { path: 'securityPurpose', message: 'must be a string' },
      { path: 'securityConfig.purpose', message: 'must be a string' },
      { path: 'securityConfig.bogus', message: 'is not a known field' },
      { path: 'extra', message: 'is not a known field' },
    ]);
  });

  it('rejects metrics that are not an array', () => {
    expect(rejected(updateMonitoringBodySchema, { metrics: { type: 'x' } })).toEqual([
      { path: 'metrics', message: 'must be an array of metric objects' },
    ]);
  });
});
