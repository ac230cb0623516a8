import {
  applicationSchema,
  authErrorBodySchema,
  errorEnvelopeSchema,
  fieldErrorSchema,
  pagedEnvelope,
  successEnvelope,
  validationErrorEnvelopeSchema,
} from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { application } from './fixtures.js';
import { accepted, rejected } from './parse-helpers.js';

describe('successEnvelope', () => {
  const envelope = successEnvelope(applicationSchema);

  it('accepts { success: true, data }', () => {
    expect(accepted(envelope, { success: true, data: application() })).toEqual({
      success: true,
      data: application(),
    });
  });

  it('rejects success false and a bad data', () => {
    expect(rejected(envelope, { success: false, data: application() }).map((e) => e.path)).toEqual([
      'success',
    ]);
    expect(
      rejected(envelope, { success: true, data: { ...application(), id: 1 } }).map((e) => e.path),
    ).toEqual(['data.id']);
  });
});

describe('pagedEnvelope', () => {
  const envelope = pagedEnvelope(applicationSchema);

  it('accepts { success: true, data: [], pagination }', () => {
    const body = {
      success: true,
      data: [application()],
      pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
    };
    expect(accepted(envelope, body)).toEqual(body);
  });

  it('requires pagination and indexes item errors', () => {
    const body = { success: true, data: [application(), { ...application(), name: null }] };
    expect(rejected(envelope, body).map((e) => e.path)).toEqual(['data[1].name', 'pagination']);
  });
});

describe('error bodies', () => {
  it('accept the error and validation error envelopes', () => {
    const error = { success: false, message: 'Application not found' };
    expect(accepted(errorEnvelopeSchema, error)).toEqual(error);
    const validation = {
      ...error,
      message: 'Validation failed',
      errors: [{ path: 'metrics[1].type', message: 'is required' }],
    };
    expect(accepted(validationErrorEnvelopeSchema, validation)).toEqual(validation);
    expect(rejected(validationErrorEnvelopeSchema, error).map((e) => e.path)).toEqual(['errors']);
    expect(rejected(fieldErrorSchema, { path: 'x' }).map((e) => e.path)).toEqual(['message']);
  });

  it('accept a 401 body with only a message, and nothing else', () => {
    expect(accepted(authErrorBodySchema, { message: 'Invalid API key' })).toEqual({
      message: 'Invalid API key',
    });
    expect(rejected(authErrorBodySchema, { success: false, message: 'Invalid API key' })).toEqual([
      { path: 'success', message: 'is not a known field' },
    ]);
  });
});
