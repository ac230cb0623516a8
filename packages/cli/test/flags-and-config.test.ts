import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tracesOfBody } from '../src/commands/evaluations.js';
import { groupPlugins, parseMetricFlag, parseValidatorFlag } from '../src/config-flags.js';
import { parseBodyText } from '../src/read-body.js';
import { resolveServiceConfig } from '../src/service-config.js';
import { SeenIds } from '../src/tail/seen-ids.js';
import { CliUsageError } from '../src/usage-error.js';
import { CLI_VERSION } from '../src/version.js';

describe('resolveServiceConfig', () => {
  const env = { AQM_API_KEY: 'env-key', AQM_BASE_URL: 'http://127.0.0.1:1/api' };

  it('prefers the flags, then the environment', () => {
    expect(resolveServiceConfig({}, env)).toEqual({ apiKey: 'env-key', baseUrl: 'http://127.0.0.1:1/api' });
    expect(resolveServiceConfig({ apiKey: 'flag-key', baseUrl: 'http://localhost:2/api' }, env)).toEqual({
      apiKey: 'flag-key',
      baseUrl: 'http://localhost:2/api',
    });
  });

  it('says how to give a missing key or address, as a usage error', () => {
    expect(() => resolveServiceConfig({}, { AQM_BASE_URL: 'http://x' })).toThrow(
      'No API key: pass --api-key or set AQM_API_KEY.',
    );
    expect(() => resolveServiceConfig({ apiKey: ' ' }, { AQM_BASE_URL: 'http://x' })).toThrow(CliUsageError);
    expect(() => resolveServiceConfig({}, { AQM_API_KEY: 'k' })).toThrow(/--base-url or set AQM_BASE_URL/);
  });
});

describe('configuration flags', () => {
  it('parses --metric with typed options', () => {
    expect(parseMetricFlag('toxicity')).toEqual({ type: 'toxicity' });
    expect(parseMetricFlag('answer_relevance:threshold=0.7')).toEqual({
      type: 'answer_relevance',
      threshold: 0.7,
    });
    expect(parseMetricFlag('faithfulness:requireContext=true,threshold=0.8')).toEqual({
      type: 'faithfulness',
      requireContext: true,
      threshold: 0.8,
    });
    expect(() => parseMetricFlag(':threshold=1')).toThrow(CliUsageError);
    expect(() => parseMetricFlag('x:threshold')).toThrow(/key=value/);
    expect(() => parseMetricFlag('x:a=1,a=2')).toThrow(/given twice/);
  });

  it('parses validators with lists joined by |', () => {
    expect(parseValidatorFlag('prompt-injection:fail', '--input')).toEqual({
      type: 'prompt-injection',
      on_fail: 'fail',
    });
    expect(parseValidatorFlag('pii:mask:entities=EMAIL_ADDRESS|PHONE_NUMBER', '--output')).toEqual({
      type: 'pii',
      on_fail: 'mask',
      config: { entities: ['EMAIL_ADDRESS', 'PHONE_NUMBER'] },
    });
    expect(() => parseValidatorFlag('pii', '--output')).toThrow(/--output "pii": give TYPE:ON_FAIL/);
  });

  it('groups plugin ids by category', () => {
    expect(groupPlugins(['harmful:hate', 'pii:direct', 'harmful:weapons'])).toEqual({
      harmful: ['harmful:hate', 'harmful:weapons'],
      pii: ['pii:direct'],
    });
    expect(() => groupPlugins(['hate'])).toThrow(/category:name/);
  });
});

describe('bodies', () => {
  it('reads JSON, then YAML, and names the position of a syntax error', async () => {
    expect(await parseBodyText('{"a":1}', 'f.json')).toEqual({ a: 1 });
    expect(await parseBodyText('a: 1\nb: [x, y]\n', 'f.yaml')).toEqual({ a: 1, b: ['x', 'y'] });
    await expect(parseBodyText('a: [1\nb: 2', 'f.yaml')).rejects.toThrow(
      /^f\.yaml:\d+:\d+: not valid JSON or YAML/,
    );
  });

  it('takes traces as { traces } or as an array', () => {
    const trace = { traceId: 'a' };
    expect(tracesOfBody({ traces: [trace] })).toEqual([trace]);
    expect(tracesOfBody([trace])).toEqual([trace]);
    expect(() => tracesOfBody({ trace })).toThrow(CliUsageError);
  });
});

describe('SeenIds', () => {
  it('forgets the oldest ids beyond its capacity', () => {
    const seen = new SeenIds(2);
    seen.add('a');
    seen.add('b');
    seen.add('a');
    seen.add('c');
    expect([seen.has('a'), seen.has('b'), seen.has('c'), seen.size]).toEqual([false, true, true, 2]);
    expect(() => new SeenIds(0)).toThrow(RangeError);
  });
});

describe('version', () => {
  it('matches package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(CLI_VERSION).toBe(pkg.version);
  });
});
