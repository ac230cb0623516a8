import { diag } from '@opentelemetry/api';
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest';
import { resetAlertsForTests } from '../../src/diag.js';
import { FakeService } from './fake-service.js';

/**
 * For tests of what an app with no logging set up sees: per test, a fresh fake service, alerts not
 * yet printed, `OTEL_LOG_LEVEL` unset, no diag logger, and stderr captured (not printed). Call at
 * the top of a test file; hooks registered after it run their `afterEach` first.
 */
export function withServiceAndStderr(): { service: () => FakeService; stderrLines: () => string[] } {
  let service: FakeService | undefined;
  let stderr: MockInstance<typeof process.stderr.write> | undefined;
  beforeEach(async () => {
    service = await FakeService.start();
    resetAlertsForTests();
    vi.stubEnv('OTEL_LOG_LEVEL', '');
    stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(async () => {
    stderr?.mockRestore();
    vi.unstubAllEnvs();
    diag.disable();
    await service?.close();
  });
  return {
    service: () => {
      if (service === undefined) throw new Error('withServiceAndStderr: no test is running');
      return service;
    },
    stderrLines: () => (stderr?.mock.calls ?? []).map((call: unknown[]) => String(call[0])),
  };
}
