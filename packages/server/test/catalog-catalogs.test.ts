import { evalMetricSchema, securityCatalogSchema, validatorCatalogEntrySchema } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { metricDefinitions } from '../src/catalog/eval-metrics.js';
import { evalMetricCatalog, securityPluginCatalog, validatorCatalog } from '../src/catalog/index.js';

describe('evalMetricCatalog', () => {
  it('is a valid GET /metrics/eval payload of at least 6 metrics', () => {
    expect(evalMetricSchema.array().parse(evalMetricCatalog)).toEqual(evalMetricCatalog);
    expect(evalMetricCatalog.length).toBeGreaterThanOrEqual(6);
  });

  it('has unique ids and names, numeric values, and is optional', () => {
    expect(new Set(evalMetricCatalog.map((m) => m.id)).size).toBe(evalMetricCatalog.length);
    expect(new Set(evalMetricCatalog.map((m) => m.name)).size).toBe(evalMetricCatalog.length);
    for (const metric of evalMetricCatalog) {
      expect(metric).toMatchObject({ valueType: 'number', mandatory: 0 });
      expect(metric.name).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
      expect(metric.description.length).toBeGreaterThan(10);
    }
  });

  it('gives every metric an optional numeric threshold', () => {
    for (const metric of evalMetricCatalog) {
      const threshold = metric.additionalFields.find((field) => field.name === 'threshold');
      expect(threshold, metric.name).toMatchObject({ type: 'number', mandatory: false });
      expect(threshold?.label).toMatch(/0 to 1/);
    }
  });

  it('mirrors the definitions, with a default in range for every option', () => {
    for (const definition of metricDefinitions) {
      const entry = evalMetricCatalog.find((metric) => metric.name === definition.name);
      expect(entry?.additionalFields.map((field) => field.name)).toEqual(
        definition.options.map((o) => o.name),
      );
      for (const option of definition.options) {
        expect(typeof option.default).toBe(option.type);
        if (typeof option.default === 'number') {
          expect(option.default).toBeGreaterThanOrEqual(option.min ?? Number.NEGATIVE_INFINITY);
          expect(option.default).toBeLessThanOrEqual(option.max ?? Number.POSITIVE_INFINITY);
        }
      }
    }
  });

  it('describes the latency budget as an extra number field', () => {
    const latency = evalMetricCatalog.find((metric) => metric.name === 'latency');
    expect(latency?.additionalFields).toContainEqual({
      name: 'maxLatencyMs',
      type: 'number',
      label: 'Latency budget in milliseconds (default 5000)',
      mandatory: false,
    });
  });
});

describe('securityPluginCatalog', () => {
  it('is a valid GET /metrics/security payload with harmful, bias and pii', () => {
    expect(securityCatalogSchema.parse(securityPluginCatalog)).toEqual(securityPluginCatalog);
    expect(Object.keys(securityPluginCatalog)).toEqual(['harmful', 'bias', 'pii']);
  });

  it('holds at least 3 described plugins per category, ids prefixed by their category', () => {
    const ids = Object.values(securityPluginCatalog)
      .flat()
      .map((plugin) => plugin.type);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [category, plugins] of Object.entries(securityPluginCatalog)) {
      expect(plugins.length).toBeGreaterThanOrEqual(3);
      for (const plugin of plugins) {
        expect(plugin.type.startsWith(`${category}:`)).toBe(true);
        expect(plugin.description).not.toBe('');
      }
    }
    expect(ids).toEqual(expect.arrayContaining(['harmful:hate', 'pii:direct', 'bias:gender']));
  });
});

describe('validatorCatalog', () => {
  it('is a valid GET /guardrails/validators payload with the five validators', () => {
    expect(validatorCatalogEntrySchema.array().parse(validatorCatalog)).toEqual(validatorCatalog);
    expect(validatorCatalog.map((entry) => entry.type)).toEqual([
      'prompt-injection',
      'pii',
      'toxicity',
      'secrets',
      'banned-topics',
    ]);
  });

  it('lets prompt-injection run on input only and the others on both stages', () => {
    const stages = Object.fromEntries(validatorCatalog.map((entry) => [entry.type, entry.stages]));
    expect(stages).toEqual({
      'prompt-injection': ['input'],
      pii: ['input', 'output'],
      toxicity: ['input', 'output'],
      secrets: ['input', 'output'],
      'banned-topics': ['input', 'output'],
    });
  });

  it('templates thresholds as numbers 0..1, pii entities as an enum and topics as free strings', () => {
    const template = (type: string) => validatorCatalog.find((entry) => entry.type === type)?.configTemplate;
    for (const type of ['prompt-injection', 'toxicity']) {
      expect(template(type)?.threshold).toMatchObject({ type: 'number', min: 0, max: 1, default: 0.5 });
    }
    const entities = ['EMAIL_ADDRESS', 'PHONE_NUMBER', 'CREDIT_CARD', 'IBAN_CODE', 'IP_ADDRESS', 'US_SSN'];
    expect(template('pii')?.entities).toMatchObject({ type: 'string[]', enum: entities, default: entities });
    expect(template('banned-topics')?.topics).toMatchObject({ type: 'string[]', default: [] });
    expect(template('banned-topics')?.topics?.enum).toBeUndefined();
    expect(template('secrets')?.entities?.enum).toEqual([
      'API_KEY',
      'AWS_ACCESS_KEY',
      'GITHUB_TOKEN',
      'PRIVATE_KEY',
      'PASSWORD',
    ]);
  });

  it('uses the validator type as category, so records can be filtered by it', () => {
    for (const entry of validatorCatalog) expect(entry.category).toBe(entry.type);
  });
});
