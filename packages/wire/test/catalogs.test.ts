import {
  additionalFieldSchema,
  evalMetricSchema,
  securityCatalogSchema,
  securityPluginSchema,
} from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { evalMetric } from './fixtures.js';
import { accepted, rejected } from './parse-helpers.js';

describe('evalMetricSchema', () => {
  it('accepts a catalog entry', () => {
    expect(accepted(evalMetricSchema, evalMetric())).toEqual(evalMetric());
  });

  it('requires an integer mandatory and complete additional fields', () => {
    const entry = {
      ...evalMetric(),
      mandatory: 0.5,
      additionalFields: [{ name: 'threshold', type: 'number' }],
    };
    expect(rejected(evalMetricSchema, entry).map((e) => e.path)).toEqual([
      'mandatory',
      'additionalFields[0].label',
      'additionalFields[0].mandatory',
    ]);
    expect(
      rejected(additionalFieldSchema, { name: 'n', type: 't', label: 'l', mandatory: 0 }).map((e) => e.path),
    ).toEqual(['mandatory']);
  });
});

describe('securityCatalogSchema', () => {
  it('accepts plugins keyed by category', () => {
    const catalog = { harmful: [{ type: 'harmful:hate', description: 'Hate speech' }], pii: [] };
    expect(accepted(securityCatalogSchema, catalog)).toEqual(catalog);
  });

  it('rejects a plugin without a description, at its indexed path', () => {
    expect(
      rejected(securityCatalogSchema, { harmful: [{ type: 'harmful:hate' }] }).map((e) => e.path),
    ).toEqual(['harmful[0].description']);
    expect(rejected(securityPluginSchema, { description: 'd' }).map((e) => e.path)).toEqual(['type']);
  });
});
