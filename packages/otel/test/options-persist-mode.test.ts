import { diag } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetAlertsForTests } from '../src/diag.js';
import { resolveOptions } from '../src/options.js';

const connection = {
  apiKey: 'sk-test',
  baseUrl: 'http://127.0.0.1:4000/api',
  applicationId: '3f1c2b4e-8a7d-4e2f-9b1a-0c6d5e4f3a2b',
};

describe('persistMode', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    diag.disable();
    resetAlertsForTests();
  });

  it("is 'overflow' by default, takes AQM_PERSIST_MODE, and the option in code wins", () => {
    expect(resolveOptions(connection, {}).persistMode).toBe('overflow');
    expect(resolveOptions(connection, { AQM_PERSIST_MODE: ' Write-Ahead ' }).persistMode).toBe('write-ahead');
    expect(resolveOptions(connection, { AQM_PERSIST_MODE: 'overflow' }).persistMode).toBe('overflow');
    expect(
      resolveOptions({ ...connection, persistMode: 'overflow' }, { AQM_PERSIST_MODE: 'write-ahead' })
        .persistMode,
    ).toBe('overflow');
  });

  it('names the option when a value passed in code is wrong', () => {
    expect(() =>
      resolveOptions({ ...connection, persistMode: 'wal' as unknown as 'write-ahead' }, {}),
    ).toThrow("Expected `persistMode` to be 'overflow' or 'write-ahead', got `wal` (string)");
  });

  it('an unknown AQM_PERSIST_MODE turns the component off with one message naming it, as other variables do', () => {
    expect(() => resolveOptions(connection, { AQM_PERSIST_MODE: 'durable' })).toThrow(
      'Expected `persistMode` (from the AQM_PERSIST_MODE environment variable) to be overflow or write-ahead, got `durable` (string)',
    );
  });
});
