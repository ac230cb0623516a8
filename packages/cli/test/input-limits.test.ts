import { existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLocatedFile } from '../src/apply/error-lines.js';
import { checkTextDepth, MAX_INPUT_DEPTH } from '../src/input-depth.js';
import { MAX_INPUT_BYTES, parseBodyText, readInputText } from '../src/read-body.js';
import { CliUsageError } from '../src/usage-error.js';

const dir = mkdtempSync(join(tmpdir(), 'aqm-cli-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `size` bytes that takes no disk space (a sparse file of NULs). */
function sparseFile(name: string, size: number): string {
  const path = join(dir, name);
  writeFileSync(path, '');
  truncateSync(path, size);
  return path;
}

/** A "billion laughs" file: 9^7 strings from eight short lines. */
const BILLION_LAUGHS = `application:
  name: bomb
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
`;

async function usageError(promise: Promise<unknown>): Promise<CliUsageError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliUsageError);
  expect((err as CliUsageError).exitCode).toBe(2);
  return err as CliUsageError;
}

describe('input size cap', () => {
  it('refuses a file over 10 MiB from its size, before reading it', async () => {
    const path = sparseFile('big.yaml', 53 * 1024 * 1024);
    const err = await usageError(
      readInputText(path, { stdout: process.stdout, stderr: process.stderr, env: {} }),
    );
    expect(err.message).toMatch(
      /big\.yaml is larger than 10 MiB \(53\.0 MiB\), the most aqm reads; nothing was sent/,
    );
  });

  it('reads a file of exactly 10 MiB', async () => {
    const path = sparseFile('limit.json', MAX_INPUT_BYTES);
    const { text } = await readInputText(path, { stdout: process.stdout, stderr: process.stderr, env: {} });
    expect(Buffer.byteLength(text)).toBe(MAX_INPUT_BYTES);
  });

  it.skipIf(!existsSync('/dev/zero'))('stops reading an endless file (/dev/zero) at the cap', async () => {
    const err = await usageError(
      readInputText('/dev/zero', { stdout: process.stdout, stderr: process.stderr, env: {} }),
    );
    expect(err.message).toMatch(/^\/dev\/zero is larger than 10 MiB, the most aqm reads/);
  });

  it('reads stdin with a bound: an endless stream is stopped, and closed, just past the cap', async () => {
    let produced = 0;
    let closed = false;
    async function* endless() {
      try {
        for (;;) {
          produced += 65_536;
          yield Buffer.alloc(65_536, 0x61);
        }
      } finally {
        closed = true;
      }
    }
    const err = await usageError(
      readInputText('-', { stdout: process.stdout, stderr: process.stderr, env: {}, stdin: endless() }),
    );
    expect(err.message).toMatch(/^The input on stdin is larger than 10 MiB/);
    expect(produced).toBe(MAX_INPUT_BYTES + 65_536);
    expect(closed).toBe(true);
  });
});

describe('hostile structure', () => {
  it('a billion-laughs file is a bad input file at its line, for bodies and for apply', async () => {
    for (const parse of [parseBodyText, parseLocatedFile]) {
      const err = await usageError(parse(BILLION_LAUGHS, 'bomb.yaml'));
      expect(err.message).toMatch(/^bomb\.yaml:6:8: not valid input: its aliases expand to too many nodes/);
    }
  });

  it('nesting is bounded before the yaml library sees it (20,000 [ aborted Node)', async () => {
    const flow = `traces: ${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    for (const parse of [parseBodyText, parseLocatedFile]) {
      const err = await usageError(parse(flow, 'deep.yaml'));
      expect(err.message).toBe(
        `deep.yaml:1:${9 + MAX_INPUT_DEPTH}: nested deeper than 512 levels, the most aqm reads; nothing was sent.`,
      );
    }
    const json = `{"traces":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const err = await usageError(parseBodyText(json, 'deep.json'));
    expect(err.message).toBe(
      'deep.json: nested deeper than 512 levels, the most aqm reads; nothing was sent.',
    );
  });

  it('counts brackets outside strings and comments only', () => {
    const deep = '['.repeat(MAX_INPUT_DEPTH + 1);
    expect(() => checkTextDepth(`a: "${deep}"\nb: '${deep}'\n# ${deep}\nc: [1]`, 'f.yaml')).not.toThrow();
    expect(() => checkTextDepth(`a: "x\\"${deep}"`, 'f.yaml')).not.toThrow();
    expect(() => checkTextDepth(`a:\n  - ${deep}`, 'f.yaml')).toThrow(/^f\.yaml:2:517: nested deeper/);
    // An apostrophe or a quote inside plain text opens no string that would hide the brackets.
    expect(() => checkTextDepth(`a: don't\nb: ${deep}`, 'f.yaml')).toThrow(/^f\.yaml:2:516: nested deeper/);
    expect(() => checkTextDepth(`a: say "hi\nb: ${deep}`, 'f.yaml')).toThrow(/^f\.yaml:2:516: nested deeper/);
    expect(() => checkTextDepth(`["a", 'b', {"c": "${deep}"}]`, 'f.json')).not.toThrow();
  });
});
