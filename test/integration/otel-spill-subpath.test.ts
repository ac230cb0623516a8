import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// `@aqm/otel/spill` (what `aqm spill` uses) loads both ways, with the same names, and without
// loading OpenTelemetry: the CLI must work where no OpenTelemetry package is installed.
const cliDir = join(import.meta.dirname, '..', '..', 'packages', 'cli');

function load(kind: 'import' | 'require'): { names: string[]; otelLoaded?: boolean } {
  const script =
    kind === 'import'
      ? `import('@aqm/otel/spill').then((m) => console.log(JSON.stringify({ names: Object.keys(m).filter((k) => k !== 'default' && k !== 'module.exports').sort() })))`
      : // The CJS build's module cache shows every file it loaded.
        `const m = require('@aqm/otel/spill'); console.log(JSON.stringify({ names: Object.keys(m).sort(), otelLoaded: Object.keys(require.cache).some((p) => p.includes('@opentelemetry')) }))`;
  const out = execFileSync(
    process.execPath,
    kind === 'import' ? ['--input-type=module', '-e', script] : ['-e', script],
    { cwd: cliDir, encoding: 'utf8' },
  );
  return JSON.parse(out) as { names: string[]; otelLoaded?: boolean };
}

describe('@aqm/otel/spill', () => {
  it('exposes inspectSpillFolder and purgeSpillFolder through import and require, without OpenTelemetry', () => {
    const esm = load('import');
    const cjs = load('require');
    expect(esm.names).toEqual(['SpillFolderRefused', 'inspectSpillFolder', 'purgeSpillFolder']);
    expect(cjs.names).toEqual(esm.names);
    expect(cjs.otelLoaded).toBe(false);
  });
});
