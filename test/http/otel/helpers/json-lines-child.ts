import { spawn } from 'node:child_process';

/** A running Node child process that prints one JSON object a line; `lines` fills as it prints. */
export interface JsonLinesChild {
  readonly pid: number;
  readonly lines: Record<string, unknown>[];
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
  kill9(): Promise<void>;
}

/** Starts `node <nodeArgs> <script>` with `env` added to the test's environment. */
export function startJsonLinesChild(
  script: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): JsonLinesChild {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (let end = stdout.indexOf('\n'); end >= 0; end = stdout.indexOf('\n')) {
      lines.push(JSON.parse(stdout.slice(0, end)) as Record<string, unknown>);
      stdout = stdout.slice(end + 1);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    pid: child.pid as number,
    lines,
    stderr: () => stderr,
    exited,
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
