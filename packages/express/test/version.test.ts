import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXPRESS_PACKAGE_VERSION } from '../src/version.js';

describe('EXPRESS_PACKAGE_VERSION', () => {
  it('equals the version in package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(EXPRESS_PACKAGE_VERSION).toBe(pkg.version);
  });
});
