import { CliUsageError } from './usage-error.js';

/**
 * How deeply input files may nest. Far deeper than any body of the service; shallow enough that
 * the yaml library (whose lexer runs out of memory and aborts Node near 10,000 nested `[`) and
 * the client's recursive serialisation (a stack overflow near 4,000) never see more.
 */
export const MAX_INPUT_DEPTH = 512;

function tooDeep(where: string): CliUsageError {
  return new CliUsageError(
    `${where}: nested deeper than ${MAX_INPUT_DEPTH} levels, the most aqm reads; nothing was sent.`,
  );
}

/** A quote opens a quoted string only where a scalar can start: after one of these, or first on a line. */
const BEFORE_SCALAR = new Set(['', ':', ',', '[', '{', '-', '?']);

/**
 * Checks the nesting of flow collections (`[` and `{`) in JSON or YAML text before it is parsed,
 * in one linear pass that skips quoted strings and comments. A quote counts as opening a string
 * only where a scalar can start (an apostrophe inside plain text does not hide what follows), and
 * brackets in plain or block scalars count too, which only makes the check stricter on files no
 * one writes.
 */
export function checkTextDepth(text: string, name: string): void {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  let previous = ''; // the last character on this line that is not a blank
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\n') {
      line++;
      lineStart = i + 1;
      previous = '';
      continue;
    }
    if ((c === '"' || c === "'") && BEFORE_SCALAR.has(previous)) {
      // A quoted string: to its closing quote (a backslash escapes in double quotes only).
      for (i++; i < text.length && text[i] !== c; i++) {
        if (c === '"' && text[i] === '\\') i++;
        if (text[i] === '\n') {
          line++;
          lineStart = i + 1;
        }
      }
      previous = c;
      continue;
    }
    if (c === '#' && (i === lineStart || /\s/.test(text[i - 1] as string))) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
      continue;
    }
    if (c === '[' || c === '{') {
      if (++depth > MAX_INPUT_DEPTH) throw tooDeep(`${name}:${line}:${i - lineStart + 1}`);
    } else if ((c === ']' || c === '}') && depth > 0) {
      depth--;
    }
    if (c !== ' ' && c !== '\t' && c !== '\r') previous = c;
  }
}

/** Checks the nesting of a parsed value, without recursion. */
export function checkValueDepth(value: unknown, name: string): void {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= MAX_INPUT_DEPTH) throw tooDeep(name);
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
}
