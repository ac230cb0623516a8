import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

// The bin as users install it: the built output named by the package's `bin` field.
const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('@aqm/fake-llm/package.json'));
const packageJson = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
};
const cli = join(packageDir, packageJson.bin['aqm-fake-llm'] as string);

describe('aqm-fake-llm process', () => {
  it('prints both base URLs, serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [cli, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', () => reject(new Error('the CLI exited before printing')));
    });
    const match =
      /^fake LLM listening: OpenAI baseURL (http:\/\/127\.0\.0\.1:\d+\/v1), Anthropic baseURL (http:\/\/127\.0\.0\.1:\d+)$/.exec(
        line,
      );
    expect(match, line).not.toBeNull();
    const [, url, anthropicUrl] = match as RegExpExecArray;
    expect(url).toBe(`${anthropicUrl}/v1`);
    const models = await fetch(`${url}/models`).then((r) => r.json() as Promise<{ object: string }>);
    expect(models.object).toBe('list');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('exits 2 with the usage on a bad flag', async () => {
    const child = spawn(process.execPath, [cli, '--port', 'nope'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr).toContain('--port must be an integer');
    expect(stderr).toContain('Usage: aqm-fake-llm');
  });
});
