import { createRequire } from 'node:module';
import type { DiagLogger } from '@opentelemetry/api';
import { alert } from '../diag.js';
import { reportApiLogsCopies } from './duplicate-api-logs.js';
import { type Copy, copyOf, requireFrom } from './package-copy.js';

/** Where every copy of `@opentelemetry/api` 1.x registers its globals, with the version that did. */
const API_GLOBALS = Symbol.for('opentelemetry.js.api.1');

const fromHere = createRequire(import.meta.url);
let checked = false;

function fix(id: string): string {
  return (
    `Make the app depend on one version of ${id} that satisfies @aqm/otel's peer range, then run ` +
    `\`npm dedupe\` (\`npm ls ${id}\` shows the copies).`
  );
}

/** Two copies of @opentelemetry/api (ours and the app's): spans may silently go nowhere. */
function compareWithApp(logger: DiagLogger, appRoot: string): Copy | undefined {
  const id = '@opentelemetry/api';
  const ours = copyOf(fromHere, id);
  if (ours === undefined) return undefined;
  const app = copyOf(requireFrom(appRoot), id);
  if (app === undefined || app.dir === ours.dir) return ours;
  const harmful = app.version !== ours.version;
  const message =
    `Two copies of ${id} are installed: ${app.version} for the app (${app.dir}) and ${ours.version} for ` +
    `@aqm/otel (${ours.dir}). ` +
    (harmful
      ? 'Spans created through one copy can silently miss what is registered through the other. '
      : 'They share their globals, so this works, but only by luck of matching versions. ') +
    fix(id);
  // Through the logger only: whether spans are lost depends on which copy registered the provider,
  // which the registry check below tells for sure (and says on stderr when they are).
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
  if (blind) alert(logger, 'warn', 'duplicate:api-registry', message);
  else logger.info(message);
}

/**
 * Reports, once per process, duplicate copies of `@opentelemetry/api` (the one the app resolves
 * from `appRoot`, and ours) and of `@opentelemetry/api-logs` (see {@link reportApiLogsCopies}), with
 * the fix: through `logger`, and on stderr when no logging is set up (see `alert`) for the copies
 * that lose data. The API's global registry is checked once the app's synchronous setup has run,
 * since a provider is usually registered right after the processor is created. Cheap (a few file
 * reads, once) and never throws.
 *
 * @example
 * reportDuplicateApis(aqmDiag);
 */
export function reportDuplicateApis(logger: DiagLogger, appRoot: string = process.cwd()): void {
  if (checked) return;
  checked = true;
  try {
    const api = compareWithApp(logger, appRoot);
    reportApiLogsCopies(logger, appRoot);
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
