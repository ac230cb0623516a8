import { type FileHandle, open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkTextDepth, checkValueDepth } from './input-depth.js';
import type { CliIo } from './io.js';
import { CliUsageError } from './usage-error.js';
import { loadYaml } from './yaml-loader.js';
import { yamlValue } from './yaml-value.js';

/**
 * The most `aqm` reads from an input file or stdin: 10 MiB. The service takes request bodies up
 * to 5 MiB, and a body near that limit written as pretty JSON or YAML is larger on disk; parsing
 * 10 MiB of YAML already needs about half a GiB of memory (53 MB ran Node out of memory).
 */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;

function tooLarge(what: string, size?: number): CliUsageError {
  const actual = size === undefined ? '' : ` (${(size / 1024 / 1024).toFixed(1)} MiB)`;
  return new CliUsageError(
    `${what} is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB${actual}, the most aqm reads; nothing was sent. Send less at once (the service takes up to 100 traces and 5 MiB per request).`,
  );
}

/** Reads a stream as UTF-8 text, stopping (and closing it) as soon as it passes the limit. */
async function readBounded(stream: AsyncIterable<string | Buffer>, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    size += bytes.length;
    if (size > MAX_INPUT_BYTES) throw tooLarge(what); // leaving the loop destroys the stream
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/**
 * Reads the text of `--file PATH`, or of stdin for `--file -`, up to {@link MAX_INPUT_BYTES}: a
 * larger input is a usage error found before it is read whole.
 */
export async function readInputText(file: string, io: CliIo): Promise<{ text: string; name: string }> {
  if (file === '-') {
    if (io.stdin === undefined) throw new CliUsageError('--file - reads stdin, but there is no input.');
    return { text: await readBounded(io.stdin, 'The input on stdin'), name: '<stdin>' };
  }
  const path = resolve(io.cwd ?? process.cwd(), file);
  const cannotRead = (err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return new CliUsageError(`Cannot read ${file} (${code}). Check the path given to --file.`);
  };
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw cannotRead(err);
  }
  try {
    const info = await handle.stat();
    if (info.isFile() && info.size > MAX_INPUT_BYTES) throw tooLarge(file, info.size);
    // Not only regular files: a FIFO or /dev/zero has no size to check, so reading stays bounded.
    const stream = handle.createReadStream({ end: MAX_INPUT_BYTES, autoClose: false });
    return { text: await readBounded(stream, file), name: file };
  } catch (err) {
    throw err instanceof CliUsageError ? err : cannotRead(err);
  } finally {
    await handle.close();
  }
}

/**
 * Parses a body as JSON, or as YAML when it is not JSON. A syntax error is a usage error that
 * names the file, line and column.
 */
export async function parseBodyText(text: string, name: string): Promise<unknown> {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    // Not JSON: YAML (a superset for most purposes) gives positions for its errors.
  }
  if (json !== undefined) {
    checkValueDepth(json, name);
    return json;
  }
  checkTextDepth(text, name);
  const yaml = await loadYaml();
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter });
  const [first] = doc.errors;
  if (first !== undefined) {
    const pos = first.linePos?.[0];
    const where = pos === undefined ? name : `${name}:${pos.line}:${pos.col}`;
    throw new CliUsageError(
      `${where}: not valid JSON or YAML: ${first.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')}`,
    );
  }
  const value = yamlValue(yaml, doc, lineCounter, name);
  checkValueDepth(value, name);
  return value;
}

/** Reads and parses the body given with `--file` (`-` for stdin). */
export async function readBody(file: string, io: CliIo): Promise<unknown> {
  const { text, name } = await readInputText(file, io);
  return parseBodyText(text, name);
}

/** Checks that a body is a JSON object, naming the file otherwise. */
export function requireObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliUsageError(`${what} must be a JSON or YAML object.`);
  }
  return value as Record<string, unknown>;
}
