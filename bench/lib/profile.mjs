// Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went: self time per function,
// mapped back through the packages' source maps to their TypeScript files, and per package. Used by
// `run.mjs --profile` for "Where the time goes" in RESULTS.md.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The package (or bucket) a script URL belongs to. */
export function packageOf(url) {
  if (url === '') return '(native / V8)';
  if (url.startsWith('node:')) return 'node internals';
  const workspace = /\/packages\/([^/]+)\/dist\//.exec(url);
  if (workspace) return `@aqm/${workspace[1]}`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(url);
  if (dependency) return dependency[1];
  if (url.includes('/bench/')) return 'bench workload';
  return 'other';
}

const maps = new Map();
/** The source map of a workspace package's dist file, or null. */
function sourceMapOf(url) {
  if (!maps.has(url)) {
    let map = null;
    if (/\/packages\/[^/]+\/dist\/.+\.js$/.test(url)) {
      try {
        const path = url.startsWith('file:') ? fileURLToPath(url) : url;
        map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
      } catch {
        map = null;
      }
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** `src/file.ts:line` for a bundled frame, or the script's own name. */
function whereOf({ url, lineNumber, columnNumber }) {
  const map = sourceMapOf(url);
  const entry = map?.findEntry(lineNumber, columnNumber);
  if (entry?.originalSource) {
    const source = entry.originalSource
      .replace(/^.*?\/(packages\/[^/]+\/src\/)/, '$1')
      .replace(/^(\.\.\/)+/, '');
    return `${source}:${entry.originalLine + 1}`;
  }
  const short = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/work\/main\//, '');
  return short === '' ? '' : `${short}:${lineNumber + 1}`;
}

/**
 * @param {string} file a .cpuprofile
 * @returns {{ totalMs: number, byPackage: {name: string, ms: number, share: number}[],
 *   functions: {name: string, where: string, pkg: string, ms: number, share: number}[] }}
 */
export function summarizeProfile(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  let totalUs = 0;
  const byFunction = new Map();
  const byPackage = new Map();
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id).callFrame;
    // The idle loop is not CPU use; keep it out of the shares.
    if (frame.functionName === '(idle)') continue;
    totalUs += us;
    const pkg = packageOf(frame.url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const name = frame.functionName || '(anonymous)';
    const where = whereOf(frame);
    const key = `${pkg}|${name}|${where}`;
    const entry = byFunction.get(key) ?? { name, where, pkg, us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
  }
  const share = (us) => (totalUs > 0 ? us / totalUs : 0);
  return {
    totalMs: totalUs / 1000,
    byPackage: [...byPackage]
      .map(([name, us]) => ({ name, ms: us / 1000, share: share(us) }))
      .sort((a, b) => b.ms - a.ms),
    functions: [...byFunction.values()]
      .map(({ us, ...rest }) => ({ ...rest, ms: us / 1000, share: share(us) }))
      .sort((a, b) => b.ms - a.ms),
  };
}
