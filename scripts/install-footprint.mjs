#!/usr/bin/env node
// Writes docs/install-footprint.md: what `npm install` puts into a fresh project for each
// combination of test/consumer/combos.mjs (the packages packed by pnpm, as published), beside
// Langfuse's and Traceloop's install commands, measured the same way (`du -sb node_modules`, and
// the number of package directories in it); and what a bundler keeps of one light import.
// Not part of CI (it downloads the comparison packages): run it after a dependency change.
//
//   node scripts/install-footprint.mjs   (dist/ built first)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMBOS } from '../test/consumer/combos.mjs';
import { installSpecs, npmInstall, packAll } from '../test/consumer/packing.mjs';
import { footprint, nodeBinDir, run } from '../test/consumer/tools.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OTHERS = [
  {
    name: 'Langfuse, its docs',
    install: ['@langfuse/tracing', '@langfuse/otel', '@opentelemetry/sdk-node'],
  },
  { name: 'Langfuse, tracing + otel only', install: ['@langfuse/tracing', '@langfuse/otel'] },
  { name: 'Traceloop (OpenLLMetry)', install: ['@traceloop/node-server-sdk'] },
];
// One light and one heavy import per package: what a bundler (esbuild, platform node, ESM,
// @opentelemetry/* external as the app's own) keeps of them.
const IMPORTS = [
  ['maskPII', '@aqm/otel'],
  ['withLlmSpan', '@aqm/otel'],
  ['AqmSpanProcessor', '@aqm/otel'],
  ['AqmNotFoundError', '@aqm/client'],
  ['AqmClient', '@aqm/client'],
];

const work = mkdtempSync(join(tmpdir(), 'aqm-footprint-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const cache = process.env.AQM_CONSUMER_NPM_CACHE ?? join(tmpdir(), 'aqm-consumer-npm-cache');
const packed = await packAll(ROOT, join(work, 'tarballs'));
const node22 = await nodeBinDir(22);
const npmVersion = (await run('npm', ['--version'])).stdout.trim();

const rows = await Promise.all(
  [...COMBOS.map((c) => ({ ...c, ours: true })), ...OTHERS].map(async (combo, i) => {
    const dir = join(work, `p${i}`);
    const env = combo.node === 22 ? { ...process.env, PATH: `${node22}:${process.env.PATH}` } : process.env;
    const specs = combo.ours ? installSpecs(combo.install, packed) : combo.install;
    const { problems, output } = await npmInstall(dir, specs, { env, cache });
    if (problems.length) throw new Error(`${combo.name}: ${problems.join('; ')}\n${output}`);
    const versions = combo.install
      .filter((n) => !n.startsWith('@aqm/'))
      .map(
        (n) =>
          `${n}@${JSON.parse(readFileSync(join(dir, 'node_modules', n, 'package.json'), 'utf8')).version}`,
      );
    return { combo, dir, versions, ...footprint(dir) };
  }),
);

// esbuild is tsup's dependency; resolved from tsup's real location (pnpm links it).
const esbuild = createRequire(realpathSync(join(ROOT, 'node_modules', 'tsup', 'package.json')))('esbuild');
const otelProject = rows.find((r) => r.combo.name === 'otel-sdk-2').dir;
const bundles = [];
for (const [name, from] of IMPORTS) {
  const sizes = [];
  for (const minify of [false, true]) {
    const out = await esbuild.build({
      stdin: {
        contents: `import { ${name} } from '${from}'; console.log(${name});`,
        resolveDir: otelProject,
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      minify,
      write: false,
      external: ['@opentelemetry/*'],
      logLevel: 'silent',
    });
    sizes.push(out.outputFiles[0].contents.byteLength);
  }
  bundles.push({ name, from, sizes });
}

const mb = (bytes) => (bytes / 1e6).toFixed(1);
const kb = (bytes) => (bytes / 1e3).toFixed(1);
const lines = [
  '# Install footprint',
  '',
  'What `npm install` puts into a fresh project, for each combination the READMEs show, beside two other',
  'LLM-tracing SDKs for Node.js installed the way their docs say. Measured the same way for all: `npm install`',
  `into an empty project (npm ${npmVersion}, Node ${process.versions.node}; the 3.x SDK line on Node 22), then`,
  '`du -sb node_modules` and the number of package directories (a `package.json` at',
  '`node_modules/[@scope/]name`, nested ones included). Our packages are installed from the tarballs',
  '`pnpm pack` makes, as they would be published. Produced by `node scripts/install-footprint.mjs`',
  '(not run in CI); the consumer test (`test/consumer/run.mjs`) prints the same figures on every CI run.',
  '',
  '| combination | `npm install` | packages | size (MB) |',
  '| --- | --- | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.combo.ours ? `\`${r.combo.name}\`` : r.combo.name}${r.combo.node === 22 ? ' (Node 22)' : ''} | \`${r.combo.install.join(' ')}\` | ${r.packages} | ${mb(r.bytes)} |`,
  ),
  '',
  'Versions the registry gave (besides ours):',
  '',
  ...rows.filter((r) => r.versions.length).map((r) => `- ${r.combo.name}: ${r.versions.join(', ')}`),
  '',
  '`@aqm/auto` does not install LangChain: `@langchain/core` is an optional peer (of `@aqm/auto` and of',
  '`@aqm/langchain`), loaded only when the app has it. Before, it was a required peer of `@aqm/langchain`,',
  'and `npm install @aqm/auto` brought LangChain, langsmith and js-tiktoken (61 packages, 66.6 MB, as',
  'measured in issue 17).',
  '',
  '## What a bundler keeps of one import',
  '',
  "esbuild (platform node, ESM, `@opentelemetry/*` left external as the app's own), bundling one import",
  'from the packages installed above. The ESM builds keep one file per module and declare',
  '`sideEffects: false`, so a light import does not bring undici (the HTTP client) or zod (the wire',
  "schemas). Before that change, `import { maskPII } from '@aqm/otel'` bundled 2,083,699 bytes",
  '(1,095,476 minified).',
  '',
  '| import | bytes | minified |',
  '| --- | ---: | ---: |',
  ...bundles.map(
    (b) => `| \`import { ${b.name} } from '${b.from}'\` | ${kb(b.sizes[0])} KB | ${kb(b.sizes[1])} KB |`,
  ),
  '',
];
const doc = join(ROOT, 'docs', 'install-footprint.md');
writeFileSync(doc, lines.join('\n'));
// Biome aligns the tables, as `pnpm lint` expects.
spawnSync(join(ROOT, 'node_modules', '.bin', 'biome'), ['format', '--write', doc], { stdio: 'inherit' });
console.log(readFileSync(doc, 'utf8'));
