import { afterEach, beforeEach } from 'vitest';
import { FakeService } from './fake-service.js';

/**
 * Per test, a fresh fake service, and `cleanup` steps (a provider to unregister, an exporter to shut
 * down) run after the test, last registered first, before the service closes. Call at the top of a
 * test file.
 */
export function withFakeService(): {
  service: () => FakeService;
  cleanup: (step: () => Promise<void>) => void;
} {
  let service: FakeService | undefined;
  let steps: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    service = await FakeService.start();
  });
  afterEach(async () => {
    for (const step of steps.reverse()) await step();
    steps = [];
    await service?.close();
  });
  return {
    service: () => {
      if (service === undefined) throw new Error('withFakeService: no test is running');
      return service;
    },
    cleanup: (step) => {
      steps.push(step);
    },
  };
}
