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

  it('an unknown AQM_PERSIST_MODE is said once on stderr, and the default is used', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(resolveOptions(connection, { AQM_PERSIST_MODE: 'durable' }).persistMode).toBe('overflow');
    expect(resolveOptions(connection, { AQM_PERSIST_MODE: 'durable' }).persistMode).toBe('overflow');
    const lines = write.mock.calls
      .map(([text]) => String(text))
      .filter((text) => text.includes('AQM_PERSIST_MODE'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('got `durable`');
  });
});
