import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { DiagLogger } from '@opentelemetry/api';
import { alert } from '../diag.js';
import { type Copy, copyOf, requireFrom } from './package-copy.js';

const API_LOGS = '@opentelemetry/api-logs';

/**
 * The packages whose copy of api-logs decides where log records go, as the app resolves them:
 * `@opentelemetry/sdk-node` registers its `LoggerProvider` through its copy, and
 * `@opentelemetry/instrumentation` hands each instrumentation a logger from its copy (also as
 * `@opentelemetry/instrumentation-openai` resolves it, which npm may nest under it).
 */
const HOLDERS: ReadonlyArray<{ name: string; via?: string }> = [
  { name: '@opentelemetry/sdk-node' },
  { name: '@opentelemetry/instrumentation' },
  { name: '@opentelemetry/instrumentation', via: '@opentelemetry/instrumentation-openai' },
];

/** One copy of api-logs and who loads it. */
interface Holding {
  copy: Copy;
  holders: string[];
}

/** The copies of api-logs the app, @aqm/otel and the packages of {@link HOLDERS} load, by folder. */
function apiLogsCopies(appRoot: string): Holding[] {
  const byDir = new Map<string, Holding>();
  const add = (copy: Copy | undefined, holder: string) => {
    if (copy === undefined) return;
    const holding = byDir.get(copy.dir) ?? { copy, holders: [] };
    if (!holding.holders.includes(holder)) holding.holders.push(holder);
    byDir.set(copy.dir, holding);
  };
  const app = requireFrom(appRoot);
  add(copyOf(app, API_LOGS), 'the app');
  add(copyOf(createRequire(import.meta.url), API_LOGS), '@aqm/otel');
  for (const { name, via } of HOLDERS) {
    const start = via === undefined ? app : withinPackage(app, via);
    const holder = start === undefined ? undefined : copyOf(start, name);
    if (holder !== undefined) add(copyOf(requireFrom(holder.dir), API_LOGS), name);
  }
  return [...byDir.values()];
}

/** A `require` from inside package `name` as `from` resolves it, or `undefined` when it is not installed. */
function withinPackage(from: NodeJS.Require, name: string): NodeJS.Require | undefined {
  const copy = copyOf(from, name);
  return copy === undefined ? undefined : requireFrom(copy.dir);
}

/**
 * Reports two or more copies of `@opentelemetry/api-logs` among those the app, @aqm/otel, the
 * NodeSDK and the instrumentations' base package load: each copy has its own proxy provider, and a
 * logger handed out by one before a provider is registered through another never reaches it, so
 * log records (the content of `@opentelemetry/instrumentation-openai`) silently go nowhere. This is
 * what `npm install @opentelemetry/sdk-logs @opentelemetry/api-logs` gives when a newer patch is
 * out than the one `@opentelemetry/sdk-node` pins. Said through `alert` (stderr without logging).
 */
export function reportApiLogsCopies(logger: DiagLogger, appRoot: string): void {
  const copies = apiLogsCopies(appRoot);
  if (copies.length < 2) return;
  const pinned =
    copies.find((c) => c.holders.includes('@opentelemetry/instrumentation')) ??
    copies.find((c) => c.holders.includes('@opentelemetry/sdk-node'));
  // Paths left out: the line must stay short, and `npm ls` shows them.
  const listed = copies.map(({ copy, holders }) => `${copy.version} (${holders.join(', ')})`).join(', ');
  let fix =
    'make the app depend on one version of @opentelemetry/api-logs and @opentelemetry/sdk-logs, then run `npm dedupe`';
  if (pinned !== undefined) {
    const version = pinned.copy.version;
    const by = pinned.holders.filter((h) => h.startsWith('@opentelemetry/')).join(' and ');
    fix = listsLogsPackages(appRoot)
      ? `\`npm install @opentelemetry/api-logs@${version} @opentelemetry/sdk-logs@${version}\`, the version ${by} pins`
      : `\`npm dedupe\`: it replaces the newer patch another package's range let npm place beside it by the ${version} ${by} pins`;
  }
  alert(
    logger,
    'warn',
    'duplicate:api-logs',
    `${copies.length} copies of ${API_LOGS} are installed: ${listed}. A logger an instrumentation got from one ` +
      'copy before a LoggerProvider was registered through another never reaches that provider, so log records ' +
      '(the prompts and responses of @opentelemetry/instrumentation-openai) silently go nowhere. ' +
      `Fix: ${fix} (\`npm ls ${API_LOGS}\` shows the copies).`,
  );
}

/** Whether the app's package.json names api-logs or sdk-logs itself (then `npm dedupe` cannot help). */
function listsLogsPackages(appRoot: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(appRoot, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some((field) => {
      const deps = manifest[field];
      return (
        typeof deps === 'object' && deps !== null && (API_LOGS in deps || '@opentelemetry/sdk-logs' in deps)
      );
    });
  } catch {
    return false;
  }
}
