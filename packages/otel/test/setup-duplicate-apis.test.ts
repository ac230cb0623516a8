import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reportDuplicateApis, resetDuplicateCheckForTests } from '../src/setup/duplicate-apis.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';

const API_GLOBALS = Symbol.for('opentelemetry.js.api.1');
const globals = globalThis as Record<symbol, unknown>;

let appRoot: string;
let savedRegistry: unknown;

/** An app folder whose node_modules (or that of the package folder `under`) holds a copy of `id` at `version`. */
function installInApp(id: string, version: string, under = appRoot): void {
  const dir = join(under, 'node_modules', ...id.split('/'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: id, version, main: 'index.js' }));
  writeFileSync(join(dir, 'index.js'), 'module.exports = {};\n');
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  appRoot = mkdtempSync(join(tmpdir(), 'aqm-duplicates-'));
  writeFileSync(join(appRoot, 'package.json'), '{"name":"app"}');
  resetDuplicateCheckForTests();
  savedRegistry = globals[API_GLOBALS];
  delete globals[API_GLOBALS];
});
afterEach(() => {
  rmSync(appRoot, { recursive: true, force: true });
  if (savedRegistry === undefined) delete globals[API_GLOBALS];
  else globals[API_GLOBALS] = savedRegistry;
});

describe('duplicate copies of the OpenTelemetry API', () => {
  it('says nothing when the app has no copy of its own (it shares ours)', async () => {
    const logger = new CaptureLogger();
    reportDuplicateApis(logger, appRoot);
    await nextTurn();
    expect(logger.lines).toEqual([]);
  });

  it('warns about an app copy of @opentelemetry/api of another version, with the fix', async () => {
    installInApp('@opentelemetry/api', '1.4.1');
    const logger = new CaptureLogger();
    reportDuplicateApis(logger, appRoot);
    const [warning] = logger.at('warn');
    expect(warning).toMatch(
      /^Two copies of @opentelemetry\/api are installed: 1\.4\.1 for the app \(.*aqm-duplicates-/,
    );
    expect(warning).toContain('can silently miss what is registered through the other');
    expect(warning).toContain('`npm dedupe` (`npm ls @opentelemetry/api` shows the copies)');
  });

  it('warns about any second copy of @opentelemetry/api-logs (its proxy provider is per copy)', () => {
    installInApp('@opentelemetry/api-logs', '0.203.0');
    const logger = new CaptureLogger();
    reportDuplicateApis(logger, appRoot);
    expect(logger.at('warn')).toHaveLength(1);
    expect(logger.at('warn')[0]).toMatch(
      /^2 copies of @opentelemetry\/api-logs are installed: 0\.203\.0 \(the app\), 0\.223\.0 \(@aqm\/otel[,)]/,
    );
  });

  it("finds the copies NodeSDK and the instrumentations' base package load, as `npm install @opentelemetry/api-logs` leaves them", () => {
    // npm's layout after `npm install @opentelemetry/sdk-node@0.223.0 @opentelemetry/api-logs@0.223.1`:
    // the app's copy on top, and the exact pins of sdk-node and instrumentation nested under each.
    installInApp('@opentelemetry/api-logs', '0.223.1');
    installInApp('@opentelemetry/sdk-node', '0.223.0');
    installInApp('@opentelemetry/api-logs', '0.223.0', join(appRoot, 'node_modules/@opentelemetry/sdk-node'));
    installInApp('@opentelemetry/instrumentation-openai', '0.21.0');
    const openai = join(appRoot, 'node_modules/@opentelemetry/instrumentation-openai');
    installInApp('@opentelemetry/instrumentation', '0.223.0', openai);
    installInApp(
      '@opentelemetry/api-logs',
      '0.223.0',
      join(openai, 'node_modules/@opentelemetry/instrumentation'),
    );
    const logger = new CaptureLogger();
    reportDuplicateApis(logger, appRoot);
    const [warning] = logger.at('warn');
    expect(warning).toMatch(/^4 copies of @opentelemetry\/api-logs are installed: 0\.223\.1 \(the app\), /);
    expect(warning).toContain(', 0.223.0 (@opentelemetry/sdk-node), ');
    expect(warning).toContain(', 0.223.0 (@opentelemetry/instrumentation).');
    expect(warning).toContain('silently go nowhere');
    // The app does not name api-logs itself: a range let npm place the newer patch, and dedupe fixes it.
    expect(warning).toContain('Fix: `npm dedupe`: it replaces the newer patch');
    expect(warning?.length).toBeLessThan(1000); // printed whole on one stderr line

    resetDuplicateCheckForTests();
    writeFileSync(
      join(appRoot, 'package.json'),
      JSON.stringify({ dependencies: { '@opentelemetry/api-logs': '^0.223.1' } }),
    );
    const again = new CaptureLogger();
    reportDuplicateApis(again, appRoot);
    expect(again.at('warn')[0]).toContain(
      'Fix: `npm install @opentelemetry/api-logs@0.223.0 @opentelemetry/sdk-logs@0.223.0`, the version @opentelemetry/instrumentation pins',
    );
  });

  it('warns when the registered API is older than ours: our copy cannot see its provider', async () => {
    globals[API_GLOBALS] = { version: '1.3.0' };
    const logger = new CaptureLogger();
    reportDuplicateApis(logger, appRoot);
    expect(logger.lines).toEqual([]); // checked once the app's synchronous setup has run
    await nextTurn();
    const [warning] = logger.at('warn');
    expect(warning).toMatch(
      /^The global OpenTelemetry API was registered by @opentelemetry\/api 1\.3\.0, and @aqm\/otel loaded 1\./,
    );
    expect(warning).toContain('cannot see the registered tracer provider');
  });

  it('checks once per process, and never throws', async () => {
    installInApp('@opentelemetry/api', '1.4.1');
    const logger = new CaptureLogger();
    reportDuplicateApis(logger, appRoot);
    reportDuplicateApis(logger, appRoot);
    expect(logger.at('warn')).toHaveLength(1);
    resetDuplicateCheckForTests();
    globals[API_GLOBALS] = {
      get version(): never {
        throw new Error('hostile registry');
      },
    };
    expect(() => reportDuplicateApis(logger, join(appRoot, 'missing'))).not.toThrow();
    await nextTurn();
  });
});
