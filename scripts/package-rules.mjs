// The manifest rules scripts/check-packages.mjs applies to every publishable package: the
// conventions of the OpenTelemetry JS ecosystem for dependencies, and what a registry page and
// `npm install` need. Each rule returns messages naming the field, what is expected and what is there.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const REPOSITORY = 'git+https://github.com/aqm-js/aqm-js.git';
const DEP_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];

/**
 * Exact versions allowed, each with its reason. Everything else gets a range, so that an app on a
 * newer patch or minor does not get a second copy.
 */
const EXACT_PINS = {
  // Experimental packages of one OpenTelemetry release train, each pinning its own
  // @opentelemetry/api-logs exactly: ranges let sdk-logs float to a patch that instrumentation
  // does not have, and npm then installs two api-logs copies (as @opentelemetry/sdk-node pins them).
  '@aqm/auto': ['@opentelemetry/instrumentation', '@opentelemetry/sdk-logs'],
};

/** Every .js/.cjs file under dist/, read, comments left out. */
function distSources(dir) {
  const out = [];
  const walk = (d) => {
    for (const entry of readdirSync(d)) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.c?js$/.test(entry)) out.push(readFileSync(path, 'utf8'));
    }
  };
  if (existsSync(join(dir, 'dist'))) walk(join(dir, 'dist'));
  // Without comments: bundled code brings its docs along (`import PQueue from 'p-queue'` in a JSDoc).
  return out
    .join('\n')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

/** Problems of one package's package.json (and its folder). */
export function manifestProblems(dir, pkg) {
  const problems = [];
  const folder = dir.replaceAll('\\', '/');
  // Metadata a registry page and a user need.
  if (pkg.license !== 'Apache-2.0')
    problems.push(`license: expected "Apache-2.0", got ${JSON.stringify(pkg.license)}`);
  if (pkg.repository?.url !== REPOSITORY || pkg.repository?.directory !== folder) {
    problems.push(`repository: expected { url: "${REPOSITORY}", directory: "${folder}" }`);
  }
  if (typeof pkg.homepage !== 'string' || !pkg.homepage.includes(folder))
    problems.push('homepage: missing or not this package');
  if (typeof pkg.bugs?.url !== 'string') problems.push('bugs.url: missing');
  if (!Array.isArray(pkg.keywords) || pkg.keywords.length === 0) problems.push('keywords: missing');
  if (typeof pkg.engines?.node !== 'string') problems.push('engines.node: missing');
  if (typeof pkg.description !== 'string' || pkg.description.length < 10)
    problems.push('description: missing');
  for (const file of ['dist', 'README.md', 'LICENSE']) {
    if (!pkg.files?.includes(file)) problems.push(`files: expected to include "${file}"`);
  }
  if (!existsSync(join(dir, 'LICENSE'))) problems.push('LICENSE: no file in the package folder');
  else if (readFileSync(join(dir, 'LICENSE'), 'utf8') !== readFileSync('LICENSE', 'utf8')) {
    problems.push('LICENSE: differs from the repository root LICENSE');
  }
  // Bins must exist before dist/ is built, so that the first install of a clone links them.
  for (const [name, target] of Object.entries(pkg.bin ?? {})) {
    if (target.replace(/^\.\//, '').startsWith('dist/'))
      problems.push(`bin.${name}: points into dist/ (${target})`);
    else if (!existsSync(join(dir, target))) problems.push(`bin.${name}: ${target} does not exist`);
    else if (!pkg.files?.includes(target.replace(/^\.\//, '').split('/')[0]))
      problems.push(`bin.${name}: not in files`);
  }
  // The OpenTelemetry API is the app's: a peer, never a dependency (two copies lose spans).
  for (const api of ['@opentelemetry/api']) {
    if (pkg.dependencies?.[api])
      problems.push(`dependencies: ${api} must be a peerDependency, not a dependency`);
  }
  const dist = distSources(dir);
  if (/["']@opentelemetry\/api["']/.test(dist) && !pkg.peerDependencies?.['@opentelemetry/api']) {
    problems.push('peerDependencies: @opentelemetry/api is imported, so it must be a peer');
  }
  // Ranges, not exact pins.
  for (const field of DEP_FIELDS) {
    for (const [name, spec] of Object.entries(pkg[field] ?? {})) {
      if (/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec) && !EXACT_PINS[pkg.name]?.includes(name)) {
        problems.push(`${field}.${name}: exact version ${spec}; use a range (^${spec})`);
      }
    }
  }
  // Nothing listed that is not loaded (a bundled dependency belongs in devDependencies): an import,
  // a require or a dynamic import of the package or one of its subpaths, in code, not in comments.
  if (dist) {
    for (const name of Object.keys(pkg.dependencies ?? {})) {
      const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      if (!new RegExp(`(?:from\\s*|\\(\\s*)["']${escaped}(?:["']|/)`).test(dist)) {
        problems.push(`dependencies.${name}: never loaded by dist/ (bundled? then a devDependency)`);
      }
    }
  }
  return problems;
}

/** Problems of the manifest as `pnpm pack` wrote it into the tarball. */
export function packedProblems(manifest) {
  const problems = [];
  for (const field of [...DEP_FIELDS, 'devDependencies']) {
    for (const [name, spec] of Object.entries(manifest[field] ?? {})) {
      if (String(spec).startsWith('workspace:')) problems.push(`${field}.${name}: still ${spec} once packed`);
    }
  }
  return problems;
}
