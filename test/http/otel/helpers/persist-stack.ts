import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type RecordingProxy, startRecordingProxy } from './recording-proxy.js';
import { startTestService, type TestService } from './service.js';

/** The local service behind a recording proxy, and the persistDir of the running test. */
export interface PersistStack {
  readonly service: TestService;
  readonly proxy: RecordingProxy;
  readonly dir: string;
  /** A child's environment: the proxy, the key, `applicationId`, the folder, then `extra`. */
  envFor(applicationId: string, extra?: Record<string, string>): Record<string, string>;
}

/**
 * For tests of persistDir with child processes: the service and its proxy for the whole block
 * (`label` names its project and the folders), and per test an empty folder, removed after the
 * test with the service's faults cleared. Call at the top of a `describe`.
 */
export function withPersistStack(label: string): PersistStack {
  let service: TestService | undefined;
  let proxy: RecordingProxy | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    service = await startTestService(label);
    proxy = await startRecordingProxy(service.srv.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await service?.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), `aqm-${label}-`));
  });
  afterEach(async () => {
    service?.srv.setFaults(null);
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`withPersistStack: no ${what} outside a test`);
    return value;
  };
  return {
    get service() {
      return started(service, 'service');
    },
    get proxy() {
      return started(proxy, 'proxy');
    },
    get dir() {
      return started(dir, 'folder');
    },
    envFor(applicationId, extra = {}) {
      return {
        AQM_BASE_URL: started(proxy, 'proxy').url,
        AQM_API_KEY: started(service, 'service').apiKey,
        AQM_APPLICATION_ID: applicationId,
        AQM_PERSIST_DIR: started(dir, 'folder'),
        ...extra,
      };
    },
  };
}
