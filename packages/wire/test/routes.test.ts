import { pagedEnvelope, type RouteName, routes, successEnvelope } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { accepted } from './parse-helpers.js';
import { SAMPLE_DATA } from './route-samples.js';

/** The 19 endpoints of the spec, with the contract's retry safety and the parts each one takes. */
const CONTRACT: ReadonlyArray<{
  name: RouteName;
  method: string;
  path: string;
  retryable: boolean;
  query: boolean;
  body: boolean;
  response: 'data' | 'paged';
}> = [
  {
    name: 'applications.list',
    method: 'GET',
    path: '/applications',
    retryable: true,
    query: true,
    body: false,
    response: 'paged',
  },
  {
    name: 'applications.create',
    method: 'POST',
    path: '/applications',
    retryable: false,
    query: false,
    body: true,
    response: 'data',
  },
  {
    name: 'applications.get',
    method: 'GET',
    path: '/applications/{applicationId}',
    retryable: true,
    query: false,
    body: false,
    response: 'data',
  },
  {
    name: 'applications.update',
    method: 'PATCH',
    path: '/applications/{applicationId}',
    retryable: true,
    query: false,
    body: true,
    response: 'data',
  },
  {
    name: 'monitoring.get',
    method: 'GET',
    path: '/applications/{applicationId}/monitoring',
    retryable: true,
    query: false,
    body: false,
    response: 'data',
  },
  {
    name: 'monitoring.update',
    method: 'PUT',
    path: '/applications/{applicationId}/monitoring',
    retryable: true,
    query: false,
    body: true,
    response: 'data',
  },
  {
    name: 'guardrails.get',
    method: 'GET',
    path: '/applications/{applicationId}/guardrails',
    retryable: true,
    query: false,
    body: false,
    response: 'data',
  },
  {
    name: 'guardrails.update',
    method: 'PUT',
    path: '/applications/{applicationId}/guardrails',
    retryable: true,
    query: false,
    body: true,
    response: 'data',
  },
  {
    name: 'guardrails.validators',
    method: 'GET',
    path: '/guardrails/validators',
    retryable: true,
    query: false,
    body: false,
    response: 'data',
  },
  {
    name: 'guardrails.evaluations.list',
    method: 'GET',
    path: '/applications/{applicationId}/guardrails/evaluations',
    retryable: true,
    query: true,
    body: false,
    response: 'data',
  },
  {
    name: 'guardrails.evaluations.get',
    method: 'GET',
    path: '/applications/{applicationId}/guardrails/evaluations/{evaluationId}',
    retryable: true,
    query: false,
    body: false,
    response: 'data',
  },
  {
    name: 'traces.list',
    method: 'GET',
    path: '/applications/{applicationId}/traces',
    retryable: true,
    query: true,
    body: false,
    response: 'paged',
  },
  {
    name: 'traces.get',
    method: 'GET',
    path: '/applications/{applicationId}/traces/{traceId}',
    retryable: true,
    query: false,
    body: false,
    response: 'data',
  },
  {
    name: 'evaluations.submit',
    method: 'POST',
    path: '/applications/{applicationId}/evaluations',
    retryable: true,
    query: false,
    body: true,
    response: 'data',
  },
  {
    name: 'evaluations.list',
    method: 'GET',
    path: '/applications/{applicationId}/evaluations',
    retryable: true,
    query: true,
    body: false,
    response: 'paged',
  },
  {
    name: 'widgets.list',
    method: 'GET',
    path: '/widgets',
    retryable: true,
    query: false,
    body: false,
    response: 'data',
  },
  {
    name: 'widgets.data',
    method: 'POST',
    path: '/applications/{applicationId}/widget-data',
    retryable: true,
    query: false,
    body: true,
    response: 'data',
  },
  {
    name: 'metrics.eval',
    method: 'GET',
    path: '/metrics/eval',
    retryable: true,
    query: false,
    body: false,
    response: 'data',
  },
  {
    name: 'metrics.security',
    method: 'GET',
    path: '/metrics/security',
    retryable: true,
    query: false,
    body: false,
    response: 'data',
  },
];

describe('routes', () => {
  it('holds exactly the 19 endpoints of the spec', () => {
    expect(Object.keys(routes).sort()).toEqual(CONTRACT.map((r) => r.name).sort());
    const endpoints = new Set(Object.values(routes).map((r) => `${r.method} ${r.path}`));
    expect(endpoints.size).toBe(19);
  });

  it.each(CONTRACT)('$name is $method $path', (expected) => {
    const route = routes[expected.name];
    expect(route.method).toBe(expected.method);
    expect(route.path).toBe(expected.path);
    expect(route.retryable).toBe(expected.retryable);
    expect('query' in route).toBe(expected.query);
    expect('body' in route).toBe(expected.body);
    expect(route.response).toBe(expected.response);
  });

  it('marks only applications.create as unsafe to retry', () => {
    const unsafe = Object.entries(routes)
      .filter(([, route]) => !route.retryable)
      .map(([name]) => name);
    expect(unsafe).toEqual(['applications.create']);
  });

  it.each(CONTRACT.map((r) => r.name))('%s: a 200 body with a valid data passes its envelope', (name) => {
    const route = routes[name];
    const sample = SAMPLE_DATA[name];
    if (route.response === 'paged') {
      const body = {
        success: true,
        data: [sample],
        pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
      };
      expect(accepted(pagedEnvelope(route.data), body)).toEqual(body);
    } else {
      expect(accepted(successEnvelope(route.data), { success: true, data: sample })).toEqual({
        success: true,
        data: sample,
      });
    }
  });
});
