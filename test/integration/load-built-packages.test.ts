import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Each built package must load in a plain Node process both ways a consumer can load it,
// and both must expose the same names: a broken CJS build or exports map shows here.
const root = join(import.meta.dirname, '..', '..');
const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map(
    (d) =>
      JSON.parse(readFileSync(join(root, 'packages', d.name, 'package.json'), 'utf8')) as { name: string },
  )
  .map((p) => p.name);

function exportNames(kind: 'import' | 'require', name: string): string[] {
  const script =
    kind === 'import'
      ? `import(${JSON.stringify(name)}).then((m) => console.log(JSON.stringify(Object.keys(m).filter((k) => k !== 'default' && k !== 'module.exports').sort())))`
      : `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(name)})).sort()))`;
  const out = execFileSync(
    process.execPath,
    kind === 'import' ? ['--input-type=module', '-e', script] : ['-e', script],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  return JSON.parse(out) as string[];
}

describe('built packages load with import and require', () => {
  it('finds the packages', () => {
    expect(packages).toContain('@aqm/wire');
    expect(packages).toContain('@aqm/client');
  });
  for (const name of packages) {
    it(`${name}: same named exports through import and require`, () => {
      const esm = exportNames('import', name);
      const cjs = exportNames('require', name);
      expect(esm.length).toBeGreaterThan(0);
      expect(cjs).toEqual(esm);
    });
  }
});
