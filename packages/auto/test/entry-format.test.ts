import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esmMainWarning, mainIsEsm } from '../src/runtime/entry-format.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'aqm-entry-format-'));
  // module/ is "type": "module", with a nested package without a type; plain/ has no package.json
  // of its own (the root's, without a type, decides); broken/ has an unreadable one.
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'root' }));
  mkdirSync(join(root, 'module', 'nested'), { recursive: true });
  writeFileSync(join(root, 'module', 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(root, 'module', 'nested', 'package.json'), JSON.stringify({ name: 'nested' }));
  mkdirSync(join(root, 'plain'));
  mkdirSync(join(root, 'broken'));
  writeFileSync(join(root, 'broken', 'package.json'), '{ "type": "module",');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('mainIsEsm', () => {
  it('.mjs and .mts are ES modules and .cjs and .cts are not, whatever the package says', () => {
    for (const dir of ['module', 'plain']) {
      expect(mainIsEsm(join(root, dir, 'app.mjs'))).toBe(true);
      expect(mainIsEsm(join(root, dir, 'app.mts'))).toBe(true);
      expect(mainIsEsm(join(root, dir, 'app.cjs'))).toBe(false);
      expect(mainIsEsm(join(root, dir, 'app.cts'))).toBe(false);
    }
  });

  it('.js, .ts and extensionless files follow the nearest package.json, as Node does', () => {
    expect(mainIsEsm(join(root, 'module', 'app.js'))).toBe(true);
    expect(mainIsEsm(join(root, 'module', 'app.ts'))).toBe(true);
    expect(mainIsEsm(join(root, 'module', 'app'))).toBe(true);
    expect(mainIsEsm(join(root, 'module', 'nested', 'app.js'))).toBe(false);
    expect(mainIsEsm(join(root, 'plain', 'app.js'))).toBe(false);
  });

  it('a relative script resolves from the working directory', () => {
    expect(mainIsEsm('app.js', join(root, 'module'))).toBe(true);
    expect(mainIsEsm('module/app.js', root)).toBe(true);
  });

  it('says false when it cannot tell: no script, another extension, an unreadable package.json', () => {
    expect(mainIsEsm(undefined)).toBe(false);
    expect(mainIsEsm('')).toBe(false);
    expect(mainIsEsm(join(root, 'module', 'app.json'))).toBe(false);
    expect(mainIsEsm(join(root, 'broken', 'app.js'))).toBe(false);
  });
});

describe('esmMainWarning', () => {
  it('names the script relative to the working directory and the flag to use', () => {
    expect(esmMainWarning(join(root, 'module', 'app.js'), root)).toBe(
      `${join('module', 'app.js')} is an ES module: --require @aqm/auto/register cannot instrument what it ` +
        'loads with import (openai, @anthropic-ai/sdk, LangChain), so those calls send no trace. ' +
        'Start it with node --import @aqm/auto/register instead (in NODE_OPTIONS too).',
    );
  });

  it('is undefined for a CommonJS app or no script', () => {
    expect(esmMainWarning(join(root, 'plain', 'app.js'), root)).toBeUndefined();
    expect(esmMainWarning(undefined, root)).toBeUndefined();
  });
});
