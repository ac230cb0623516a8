import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIo } from './io.js';
import { CliUsageError } from './usage-error.js';
import { loadYaml } from './yaml-loader.js';

/** Reads all of a stream as UTF-8 text. */
async function readAll(stream: AsyncIterable<string | Buffer>): Promise<string> {
  const chunks: string[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
  return chunks.join('');
}

/** Reads the text of `--file PATH`, or of stdin for `--file -`. */
export async function readInputText(file: string, io: CliIo): Promise<{ text: string; name: string }> {
  if (file === '-') {
    if (io.stdin === undefined) throw new CliUsageError('--file - reads stdin, but there is no input.');
    return { text: await readAll(io.stdin), name: '<stdin>' };
  }
  const path = resolve(io.cwd ?? process.cwd(), file);
  try {
    return { text: await readFile(path, 'utf8'), name: file };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new CliUsageError(`Cannot read ${file} (${code}). Check the path given to --file.`);
  }
}

/**
 * Parses a body as JSON, or as YAML when it is not JSON. A syntax error is a usage error that
 * names the file, line and column.
 */
export async function parseBodyText(text: string, name: string): Promise<unknown> {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON: YAML (a superset for most purposes) gives positions for its errors.
  }
  const { parseDocument } = await loadYaml();
  const doc = parseDocument(text);
  const [first] = doc.errors;
  if (first !== undefined) {
    const pos = first.linePos?.[0];
    const where = pos === undefined ? name : `${name}:${pos.line}:${pos.col}`;
    throw new CliUsageError(
      `${where}: not valid JSON or YAML: ${first.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')}`,
    );
  }
  return doc.toJS() as unknown;
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
