import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DiagLogger } from '@opentelemetry/api';

/** Where every copy of `@opentelemetry/api` 1.x registers its globals, with the version that did. */
const API_GLOBALS = Symbol.for('opentelemetry.js.api.1');

/** A copy of a package: its folder (real path) and version. */
interface Copy {
  dir: string;
  version: string;
}

const fromHere = createRequire(import.meta.url);
let checked = false;

/** The folder and version of the copy `require` resolves `id` to, or `undefined`. */
function copyOf(require: NodeJS.Require, id: string): Copy | undefined {
  let entry: string;
  try {
    entry = require.resolve(id);
  } catch {
    return undefined;
  }
  // The entry lies somewhere inside the package: walk up to its package.json.
  for (let dir = dirname(entry), depth = 0; depth < 8; dir = dirname(dir), depth += 1) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === id) {
        return { dir: realpathSync(dir), version: String(manifest.version) };
      }
    } catch {
      // No package.json here: keep walking up.
    }
    if (dirname(dir) === dir) break;
  }
  return undefined;
}

function fix(id: string): string {
  return (
    `Make the app depend on one version of ${id} that satisfies @aqm/otel's peer range, then run ` +
    `\`npm dedupe\` (\`npm ls ${id}\` shows the copies).`
  );
}

/** Two copies of `id` (ours and the app's): spans or log records may silently go nowhere. */
function compareWithApp(
  logger: DiagLogger,
  id: string,
  alwaysHarmful: boolean,
  appRoot: string,
): Copy | undefined {
  const ours = copyOf(fromHere, id);
  if (ours === undefined) return undefined;
  const app = copyOf(createRequire(join(appRoot, 'package.json')), id);
  if (app === undefined || app.dir === ours.dir) return ours;
  const harmful = alwaysHarmful || app.version !== ours.version;
  const message =
    `Two copies of ${id} are installed: ${app.version} for the app (${app.dir}) and ${ours.version} for ` +
    `@aqm/otel (${ours.dir}). ` +
    (harmful
      ? 'Spans or log records created through one copy can silently miss what is registered through the other. '
      : 'They share their globals, so this works, but only by luck of matching versions. ') +
    fix(id);
  if (harmful) logger.warn(message);
  else logger.info(message);
  return ours;
}

/** The API registry was created by another version than ours: our copy may see no provider. */
function compareWithRegistry(logger: DiagLogger, ours: Copy): void {
  const registry = (globalThis as Record<symbol, unknown>)[API_GLOBALS] as { version?: unknown } | undefined;
  const registered = registry?.version;
  if (typeof registered !== 'string' || registered === ours.version) return;
  const [, ourMinor = 0] = ours.version.split('.').map(Number);
  const [, theirMinor = 0] = registered.split('.').map(Number);
  // A copy only uses globals registered by the same or a newer minor version (the API's own rule).
  const blind = theirMinor < ourMinor;
  const message =
    `The global OpenTelemetry API was registered by @opentelemetry/api ${registered}, and @aqm/otel loaded ` +
    `${ours.version} (${ours.dir}). ` +
    (blind
      ? 'That copy is older, so @aqm/otel cannot see the registered tracer provider and context: withLlmSpan() ' +
        'spans go nowhere and registerAqm() cannot join the provider. '
      : '') +
    fix('@opentelemetry/api');
  if (blind) logger.warn(message);
  else logger.info(message);
}

/**
 * Reports, once per process and through `diag`, duplicate copies of `@opentelemetry/api` or
 * `@opentelemetry/api-logs` (the one the app resolves from `appRoot`, and ours), with the fix. The API's global registry is
 * checked once the app's synchronous setup has run, since a provider is usually registered right
 * after the processor is created. Cheap (a few file reads, once) and never throws.
 *
 * @example
 * reportDuplicateApis(aqmDiag);
 */
export function reportDuplicateApis(logger: DiagLogger, appRoot: string = process.cwd()): void {
  if (checked) return;
  checked = true;
  try {
    const api = compareWithApp(logger, '@opentelemetry/api', false, appRoot);
    compareWithApp(logger, '@opentelemetry/api-logs', true, appRoot);
    if (api !== undefined) {
      const later = setImmediate(() => {
        try {
          compareWithRegistry(logger, api);
        } catch {
          // A check must never cost the app anything.
        }
      });
      later.unref();
    }
  } catch {
    // Never throws: this is advice, not a requirement.
  }
}

/** Lets the next call check again (for tests). @internal */
export function resetDuplicateCheckForTests(): void {
  checked = false;
}
