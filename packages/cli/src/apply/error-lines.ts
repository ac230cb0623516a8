import type { Document, Node } from 'yaml';
import { checkTextDepth, checkValueDepth } from '../input-depth.js';
import { CliUsageError } from '../usage-error.js';
import { loadYaml } from '../yaml-loader.js';
import { yamlValue } from '../yaml-value.js';

/**
 * Splits an `errors[].path` such as `monitoring.metrics[1].type` into keys and indexes:
 * `['monitoring', 'metrics', 1, 'type']`. The root `$` is `[]`.
 */
export function parseErrorPath(path: string): Array<string | number> {
  if (path === '$' || path === '') return [];
  const segments: Array<string | number> = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (match[2] !== undefined) segments.push(Number(match[2]));
    else if (match[1] !== undefined) segments.push(match[1]);
  }
  return segments;
}

/** A 1-based line and column in a file. */
export interface FilePosition {
  line: number;
  col: number;
}

/** A parsed configuration file that can point at the line of any path in it. */
export interface LocatedFile {
  value: unknown;
  /** The position of the deepest part of `path` present in the file (the key itself for a map entry). */
  locate(path: string): FilePosition | undefined;
}

function startOf(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}

/**
 * Finds the offset of the node at `segments`: walks maps and sequences as far as the path goes,
 * so a missing field points at its parent and an unknown key at the key itself.
 */
export function offsetOf(
  yaml: Pick<typeof import('yaml'), 'isMap' | 'isSeq' | 'isScalar'>,
  doc: Document,
  segments: Array<string | number>,
): number | undefined {
  const { isMap, isScalar, isSeq } = yaml;
  let node: unknown = doc.contents;
  let offset = startOf(node);
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (pair === undefined) break;
      offset = startOf(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
      node = node.items[segment];
      offset = startOf(node) ?? offset;
    } else {
      break;
    }
  }
  return offset;
}

/**
 * Parses a JSON or YAML file (yaml reads JSON too) keeping positions, so validation errors can
 * name lines. A syntax error is a usage error with `file:line:col`.
 */
export async function parseLocatedFile(text: string, name: string): Promise<LocatedFile> {
  checkTextDepth(text, name);
  const yaml = await loadYaml();
  const { LineCounter, parseDocument } = yaml;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const lines = doc.errors.map((error) => {
      const pos = error.linePos?.[0];
      const where = pos === undefined ? name : `${name}:${pos.line}:${pos.col}`;
      return `  ${where}: ${error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')}`;
    });
    throw new CliUsageError(`${name} is not valid JSON or YAML. Fix the syntax below.`, lines);
  }
  const value = yamlValue(yaml, doc, lineCounter, name);
  checkValueDepth(value, name);
  return {
    value,
    locate(path) {
      const offset = offsetOf(yaml, doc, parseErrorPath(path));
      return offset === undefined ? undefined : lineCounter.linePos(offset);
    },
  };
}

/** `file:line: path: message` lines for field errors, the way compilers report them. */
export function errorLines(
  file: LocatedFile,
  name: string,
  errors: ReadonlyArray<{ path: string; message: string }>,
): string[] {
  return errors.map((error) => {
    const pos = file.locate(error.path);
    const where = pos === undefined ? name : `${name}:${pos.line}:${pos.col}`;
    return `  ${where}: ${error.path}: ${error.message}`;
  });
}
