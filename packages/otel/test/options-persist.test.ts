import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../src/options.js';

const connection = {
  apiKey: 'sk-test',
  baseUrl: 'http://127.0.0.1:4000/api',
  applicationId: '3f1c2b4e-8a7d-4e2f-9b1a-0c6d5e4f3a2b',
};

describe('persistDir and maxDiskBytes', () => {
  it('are off by default, and take AQM_PERSIST_DIR (relative to the working directory)', () => {
    expect(resolveOptions(connection, {}).persistDir).toBeUndefined();
    expect(resolveOptions(connection, { AQM_PERSIST_DIR: '' }).persistDir).toBeUndefined();
    expect(resolveOptions(connection, { AQM_PERSIST_DIR: '   ' }).persistDir).toBeUndefined();
    expect(resolveOptions(connection, { AQM_PERSIST_DIR: 'spill' }).persistDir).toBe(resolve('spill'));
    expect(
      resolveOptions({ ...connection, persistDir: '/var/aqm' }, { AQM_PERSIST_DIR: '/x' }).persistDir,
    ).toBe('/var/aqm');
  });

  it('name the option when a value passed in code is wrong', () => {
    expect(() => resolveOptions({ ...connection, persistDir: 42 as unknown as string }, {})).toThrow(
      'Expected `persistDir` to be a folder path (a non-empty string), got `42` (number)',
    );
    expect(() => resolveOptions({ ...connection, persistDir: '' }, {})).toThrow(/`persistDir`/);
    expect(() => resolveOptions({ ...connection, maxDiskBytes: 1000 }, {})).toThrow(
      'Expected `maxDiskBytes` to be an integer >= 1048576, got `1000` (number)',
    );
  });
});
