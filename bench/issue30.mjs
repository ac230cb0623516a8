// Issue 30's proof in one go: on each Node line, the burst and the steady rate with the three
// pipelines side by side (`run.mjs --scenario throughput|steady`, default variants) and the floor
// (`floor.mjs`), then the "Issue 30: three pipelines" section of RESULTS.md from their figures.
//
//   node bench/issue30.mjs                               # Node 20 and 22, the bench's defaults (~15 min)
//   node bench/issue30.mjs --nodes 20 -- --rounds 2 --chunk 100   # after `--`: flags for run.mjs
//
// A Node line other than this process's runs through `npx -y -p node@<major> -- node` (fetched from
// the npm registry, as scripts/run-on-node22.mjs does); each run's children run on its Node.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFlags } from './lib/args.mjs';
import { machine } from './lib/measure.mjs';
import { issue30Section, withIssue30Section } from './lib/report-issue30.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE = `usage: node bench/issue30.mjs [flags] [-- run.mjs flags]   (each flag also as BENCH_<NAME>)
  --nodes LIST        Node major versions to run on (20,22); this process's own runs directly
  --scenarios LIST    run.mjs scenarios (throughput,steady)
  --floor-traces N    bench/floor.mjs --traces (20480; more than 10,000, see floor.mjs)
  --floor-rounds N    bench/floor.mjs --rounds (7)
  --results PATH|none the RESULTS.md whose "Issue 30" section is written (bench/RESULTS.md)
  after --             passed to every run.mjs run (after --profile off, which they can override),
                       e.g. -- --rounds 2 --traces 20000 --chunk 100`;

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const runArgs = dashes === -1 ? [] : argv.slice(dashes + 1);
const flags = readFlags(
  {
    nodes: '20,22',
    scenarios: 'throughput,steady',
    'floor-traces': 20_480,
    'floor-rounds': 7,
    results: fileURLToPath(new URL('./RESULTS.md', import.meta.url)),
  },
  USAGE,
  dashes === -1 ? argv : argv.slice(0, dashes),
);
const list = (text) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The command that runs a script on Node `major`: this process's node, or npx's node@major. */
function nodeCommand(major) {
  if (major === process.versions.node.split('.')[0]) return [process.execPath, []];
  return ['npx', ['-y', '-p', `node@${major}`, '--', 'node']];
}

/** Runs `script` with `args` on Node `major`, its output on ours; exits when it fails. */
function runOn(major, script, args) {
  const [command, prefix] = nodeCommand(major);
  console.log(
    `\n$ ${[command === process.execPath ? 'node' : command, ...prefix, script, ...args].join(' ')}`,
  );
  const result = spawnSync(command, [...prefix, script, ...args], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`issue30: ${script} on Node ${major} failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
}

const work = mkdtempSync(join(tmpdir(), 'aqm-issue30-'));
const started = new Date().toISOString();
const perNode = [];
try {
  for (const major of list(flags.nodes)) {
    const runs = [];
    for (const scenario of list(flags.scenarios)) {
      const json = join(work, `run-${major}-${scenario}.json`);
      runOn(major, 'bench/run.mjs', [
        '--scenario',
        scenario,
        '--profile',
        'off',
        ...runArgs,
        '--results',
        'none',
        '--json',
        json,
      ]);
      const run = JSON.parse(readFileSync(json, 'utf8'));
      // The temporary file's name is of no use in RESULTS.md.
      run.command = run.command.replace(` --json ${json}`, '');
      runs.push(run);
    }
    const floorJson = join(work, `floor-${major}.json`);
    runOn(major, 'bench/floor.mjs', [
      '--traces',
      String(flags['floor-traces']),
      '--rounds',
      String(flags['floor-rounds']),
      '--json',
      floorJson,
    ]);
    const floor = JSON.parse(readFileSync(floorJson, 'utf8'));
    floor.command = floor.command.replace(` --json ${floorJson}`, '');
    perNode.push({ node: runs[0]?.machine.node ?? floor.machine.node, runs, floor });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const command = `node bench/issue30.mjs ${argv.join(' ')}`.trim();
const section = issue30Section(perNode, {
  machine: machine(),
  date: started,
  command,
  revision: revision(),
});
console.log(`\n${section}`);
if (flags.results !== 'none') {
  const previous = existsSync(flags.results) ? readFileSync(flags.results, 'utf8') : '';
  writeFileSync(flags.results, withIssue30Section(previous, section));
  console.log(`\nwrote the "Issue 30: three pipelines" section of ${flags.results}`);
}

/** The commit measured, and whether @aqm/otel had changes not committed. */
function revision() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--', 'packages/otel');
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' + uncommitted @aqm/otel changes' : ''}`;
  } catch {
    return 'unknown';
  }
}
