import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliService, runAqm, runInProcess, startCliService } from './helpers.js';

let svc: CliService;
beforeAll(async () => {
  svc = await startCliService();
});
afterAll(async () => {
  await svc?.close();
});

describe.concurrent('error messages never show the key, URL credentials or query strings', () => {
  it('a one-letter key does not mangle the message (it was "Chec[redacted] --base-url")', async () => {
    const env = { ...svc.env, AQM_API_KEY: 'k', AQM_BASE_URL: 'http://127.0.0.1:1/api' };
    const run = await runAqm(['apps', 'list'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'aqm: Could not reach the service at http://127.0.0.1:1/api (ECONNREFUSED). Check --base-url or AQM_BASE_URL and that the service is running.\n',
    );
    const refused = await runInProcess(['apps', 'list'], { ...svc.env, AQM_API_KEY: 'e' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'aqm: The service refused the API key (401). Check --api-key or AQM_API_KEY.\n',
    );
  });

  it('an invalid base URL is echoed without credentials or query string, from flags or environment', async () => {
    const secretUrls = [
      'http://user:hunter2@127.0.0.1:1/api?token=s3cret',
      'http://127.0.0.1:1/api?key=s3cret#s3cret',
      'htp://user:hunter2@127.0.0.1/api?token=s3cret',
      'not a url?token=s3cret',
    ];
    const runs = await Promise.all([
      ...secretUrls.map((url) => runInProcess(['apps', 'list', '--base-url', url], svc.env)),
      runAqm(['apps', 'list'], { ...svc.env, AQM_BASE_URL: secretUrls[0] as string }),
    ]);
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /^aqm: Invalid configuration: the base URL \(--base-url or AQM_BASE_URL\) must/,
      );
      expect(run.stderr).not.toContain('hunter2');
      expect(run.stderr).not.toContain('s3cret');
    }
    expect(runs[1]?.stderr).toBe(
      'aqm: Invalid configuration: the base URL (--base-url or AQM_BASE_URL) must not contain a query string or fragment, got "http://127.0.0.1:1/api" (query string not shown)\n',
    );
  });
});
