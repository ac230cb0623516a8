import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AqmSpanProcessor } from '../src/processor.js';
import { FakeService } from './export-helpers/fake-service.js';
import { aqmOptions, llmCall, registerProvider, testInternals } from './export-helpers/otel-setup.js';

let service: FakeService;
let dir: string;
beforeEach(async () => {
  service = await FakeService.start();
  dir = await mkdtemp(join(tmpdir(), 'aqm-wal-stats-'));
});
afterEach(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

async function loggedAfterThreeCalls(persistMode: 'overflow' | 'write-ahead'): Promise<number | undefined> {
  const { internals } = testInternals();
  const processor = new AqmSpanProcessor(aqmOptions(service, { persistDir: dir, persistMode }), internals);
  const registration = registerProvider(processor);
  try {
    for (const n of [1, 2, 3]) await llmCall(`question ${n}?`, `answer ${n}.`);
    await processor.forceFlush();
    expect(processor.stats().exportedTraces).toBe(3);
    return processor.stats().disk?.loggedTraces;
  } finally {
    await registration.unregister();
  }
}

describe('stats().disk.loggedTraces', () => {
  it('counts each trace written to the write-ahead log, and stays 0 in overflow mode', async () => {
    expect(await loggedAfterThreeCalls('write-ahead')).toBe(3);
    expect(await loggedAfterThreeCalls('overflow')).toBe(0);
  });
});
