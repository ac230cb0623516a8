import { buildPath, routes } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { APP_ID, TRACE_ID } from './fixtures.js';

describe('buildPath', () => {
  it('fills every placeholder', () => {
    expect(
      buildPath(routes['guardrails.evaluations.get'].path, { applicationId: APP_ID, evaluationId: 'gr-1' }),
    ).toBe(`/applications/${APP_ID}/guardrails/evaluations/gr-1`);
    expect(buildPath(routes['traces.get'].path, { applicationId: APP_ID, traceId: TRACE_ID })).toBe(
      `/applications/${APP_ID}/traces/${TRACE_ID}`,
    );
  });

  it('leaves a path without placeholders as it is', () => {
    expect(buildPath(routes['metrics.eval'].path)).toBe('/metrics/eval');
  });

  it('URI-encodes each value so it stays one path segment', () => {
    expect(buildPath('/applications/{applicationId}', { applicationId: 'a b/c?d#e%' })).toBe(
      '/applications/a%20b%2Fc%3Fd%23e%25',
    );
  });

  it('throws a TypeError naming a missing or empty parameter', () => {
    const template = routes['traces.get'].path;
    expect(() => buildPath(template, { applicationId: APP_ID })).toThrow(
      new TypeError('traceId is required and must be a non-empty string'),
    );
    expect(() => buildPath(template, { applicationId: '', traceId: TRACE_ID })).toThrow(
      new TypeError('applicationId is required and must be a non-empty string'),
    );
    expect(() => buildPath(template)).toThrow(TypeError);
  });
});
