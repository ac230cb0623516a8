import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { AqmStats } from '@aqm/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastJsonLine, runChild } from './helpers/run-child.js';
import { startTestService, type TestService } from './helpers/service.js';

const CHILD = fileURLToPath(new URL('./fixtures/delivery-failure-child.mjs', import.meta.url));
/** No logging set up in the child: no OTEL_LOG_LEVEL (an empty value removes it). */
const NO_LOGGING = { OTEL_LOG_LEVEL: '', AQM_DISABLED: '', OTEL_SDK_DISABLED: '' };

describe('a hand-built provider and no logging set up, against a service that refuses the key', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('visible-401');
  });

  afterAll(async () => {
    await service?.close();
  });

  it.each(['processor', 'exporter'])(
    '%s: one stderr line says to check AQM_API_KEY (the key never shown), and provider.forceFlush() returns at once',
    async (mode) => {
      const applicationId = await service.createApp(`visible-${mode}`);
      const wrongKey = `wrong-key-${randomUUID()}`;
      const { code, stdout, stderr } = await runChild(CHILD, {
        ...NO_LOGGING,
        AQM_BASE_URL: service.srv.url,
        AQM_API_KEY: wrongKey,
        AQM_APPLICATION_ID: applicationId,
        MODE: mode,
      });
      expect(code, stderr).toBe(0);
      const report = lastJsonLine<{ flushMs: number; flushError?: string; stats: AqmStats }>(stdout);
      console.info(
        `[401 ${mode}] provider.forceFlush() took ${report.flushMs.toFixed(0)} ms${report.flushError ? ` and rejected: ${report.flushError}` : ''}`,
      );
      const lines = stderr.split('\n').filter((line) => line.startsWith('@aqm/otel'));
      // The pause says what to fix; the shutdown that follows, how many traces it gave up.
      expect(lines, stderr).toHaveLength(2);
      expect(lines[0]).toContain('(401)');
      expect(lines[0]).toContain('Check AQM_API_KEY');
      expect(lines[1]).toMatch(/^@aqm\/otel: 3 trace\(s\) were not delivered before shutdown \(401 /);
      expect(stderr).not.toContain(wrongKey);
      // The provider's flush timeout is 10 minutes and the child's deadline one: it returned
      // because delivery was known to be impossible, with the traces still held.
      expect(report.stats.queuedTraces).toBe(3);
      expect(report.stats.exportedTraces).toBe(0);
    },
    70_000,
  );

  it('a script that only flushes still exits by itself after a 401 (nothing of ours holds the process)', async () => {
    const applicationId = await service.createApp('visible-exit');
    const { code, stdout, stderr, ms } = await runChild(CHILD, {
      ...NO_LOGGING,
      AQM_BASE_URL: service.srv.url,
      AQM_API_KEY: `wrong-key-${randomUUID()}`,
      AQM_APPLICATION_ID: applicationId,
      MODE: 'processor',
      SHUTDOWN: 'no',
    });
    expect(code, stderr).toBe(0);
    const report = lastJsonLine<{ flushMs: number; stats: AqmStats }>(stdout);
    console.info(`[401 no shutdown] the child ran ${ms.toFixed(0)} ms in all`);
    expect(report.stats.queuedTraces).toBe(3);
  }, 70_000);
});
