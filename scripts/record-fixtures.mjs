// `pnpm fixtures:record [source…]`: regenerates packages/otel/test/recorded/<source>.json by running
// each recording fixture (a test/fixtures/* package whose package.json lists `aqmRecordings`) as
// `node run.mjs <source>` with RECORD=1: the real instrumentation packages against the fake model.
// Needs the packages built (`pnpm build`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');
const wanted = new Set(process.argv.slice(2));
let failed = 0;
let ran = 0;
for (const entry of readdirSync(FIXTURES, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue;
  const manifest = join(FIXTURES, entry.name, 'package.json');
  if (!existsSync(manifest)) continue;
  const sources = JSON.parse(readFileSync(manifest, 'utf8')).aqmRecordings ?? [];
  for (const source of sources) {
    if (wanted.size > 0 && !wanted.has(source)) continue;
    ran += 1;
    const run = spawnSync(process.execPath, ['run.mjs', source], {
      cwd: join(FIXTURES, entry.name),
      env: { ...process.env, RECORD: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (run.status === 0) console.log(`recorded ${source} (test/fixtures/${entry.name})`);
    else {
      failed += 1;
      console.error(`recording ${source} failed: exit ${run.status ?? run.signal}`);
    }
  }
}
if (wanted.size > 0 && ran < wanted.size) {
  console.error(`no fixture lists ${[...wanted].join(', ')} in its aqmRecordings`);
  process.exitCode = 1;
}
if (failed > 0) process.exitCode = 1;
