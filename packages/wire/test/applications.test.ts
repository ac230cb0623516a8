import {
  applicationDetailSchema,
  applicationSchema,
  createApplicationBodySchema,
  listApplicationsQuerySchema,
  updateApplicationBodySchema,
  updatedApplicationSchema,
} from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { application, guardrailsConfig, monitoringConfig } from './fixtures.js';
import { accepted, rejected } from './parse-helpers.js';

describe('applicationSchema and applicationDetailSchema', () => {
  it('accept an application and its single read', () => {
    expect(accepted(applicationSchema, application())).toEqual(application());
    const detail = {
      ...application(),
      monitoring: { ...monitoringConfig(), logLocation: 'logs/support-bot' },
      guardrails: guardrailsConfig(),
    };
    expect(accepted(applicationDetailSchema, detail)).toEqual(detail);
  });

  it('require every field of an application', () => {
    const { updatedAt: _, ...withoutUpdatedAt } = application();
    expect(rejected(applicationSchema, withoutUpdatedAt).map((e) => e.path)).toEqual(['updatedAt']);
  });

  it('require monitoring and guardrails in the single read; logLocation only "may" be there (spec)', () => {
    const errors = rejected(applicationDetailSchema, { ...application(), monitoring: monitoringConfig() });
    expect(errors.map((e) => e.path)).toEqual(['guardrails']);
    const withoutMonitoring = { ...application(), guardrails: guardrailsConfig() };
    expect(rejected(applicationDetailSchema, withoutMonitoring).map((e) => e.path)).toEqual(['monitoring']);
  });

  it('pick id, name, description and updatedAt for the PATCH response', () => {
    const { createdAt: _, ...updated } = application();
    expect(accepted(updatedApplicationSchema, application())).toEqual(updated);
  });
});

describe('listApplicationsQuerySchema', () => {
  it('defaults page and limit and keeps search', () => {
    expect(accepted(listApplicationsQuerySchema, {})).toEqual({ page: 1, limit: 20 });
    expect(accepted(listApplicationsQuerySchema, { page: '2', limit: '5', search: 'Bot' })).toEqual({
      page: 2,
      limit: 5,
      search: 'Bot',
    });
  });

  it('drops unknown query parameters', () => {
    expect(accepted(listApplicationsQuerySchema, { sort: 'name' })).toEqual({ page: 1, limit: 20 });
  });

  it('rejects a limit over 100', () => {
    expect(rejected(listApplicationsQuerySchema, { limit: '101' })).toEqual([
      { path: 'limit', message: 'must be an integer from 1 to 100' },
    ]);
  });
});

describe('createApplicationBodySchema', () => {
  it('accepts a name alone or with a description, trimming the name', () => {
    expect(accepted(createApplicationBodySchema, { name: '  support-bot ' })).toEqual({
      name: 'support-bot',
    });
    expect(accepted(createApplicationBodySchema, { name: 'a', description: '' })).toEqual({
      name: 'a',
      description: '',
    });
  });

  it('accepts the length limits exactly', () => {
    const body = { name: 'n'.repeat(100), description: 'd'.repeat(1000) };
    expect(accepted(createApplicationBodySchema, body)).toEqual(body);
  });

  it('requires a name', () => {
    expect(rejected(createApplicationBodySchema, {})).toEqual([{ path: 'name', message: 'is required' }]);
  });

  it.each([[''], ['   '], ['n'.repeat(101)]])('rejects the name %j', (name) => {
    expect(rejected(createApplicationBodySchema, { name })).toEqual([
      { path: 'name', message: 'must be 1 to 100 characters' },
    ]);
  });

  it('rejects values of the wrong type', () => {
    expect(rejected(createApplicationBodySchema, { name: 5, description: false })).toEqual([
      { path: 'name', message: 'must be a string' },
      { path: 'description', message: 'must be a string' },
    ]);
  });

  it('rejects a description over 1000 characters', () => {
    expect(rejected(createApplicationBodySchema, { name: 'a', description: 'd'.repeat(1001) })).toEqual([
      { path: 'description', message: 'must be at most 1000 characters' },
    ]);
  });

  it('rejects unknown fields, each at its own path', () => {
    expect(rejected(createApplicationBodySchema, { name: 'a', id: 'x', tags: [] })).toEqual([
      { path: 'id', message: 'is not a known field' },
      { path: 'tags', message: 'is not a known field' },
    ]);
  });

  it('rejects a body that is not an object at $', () => {
    expect(rejected(createApplicationBodySchema, ['a']).map((e) => e.path)).toEqual(['$']);
  });
});

describe('updateApplicationBodySchema', () => {
  it('accepts either field alone', () => {
    expect(accepted(updateApplicationBodySchema, { name: ' renamed ' })).toEqual({ name: 'renamed' });
    expect(accepted(updateApplicationBodySchema, { description: 'new' })).toEqual({ description: 'new' });
  });

  it('requires at least one of name and description, reported at $', () => {
    expect(rejected(updateApplicationBodySchema, {})).toEqual([
      { path: '$', message: 'at least one of name, description must be provided' },
    ]);
  });

  it('applies the same rules as creation', () => {
    expect(
      rejected(updateApplicationBodySchema, { name: '', description: 'd'.repeat(1001), color: 'red' }),
    ).toEqual([
      { path: 'name', message: 'must be 1 to 100 characters' },
      { path: 'description', message: 'must be at most 1000 characters' },
      { path: 'color', message: 'is not a known field' },
    ]);
  });
});
