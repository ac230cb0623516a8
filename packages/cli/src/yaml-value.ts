import type { Document, LineCounter } from 'yaml';
import { CliUsageError } from './usage-error.js';

/** `name:line:col`, or the name alone without a position. */
function where(name: string, lineCounter: LineCounter, offset: number | undefined): string {
  if (offset === undefined) return name;
  const { line, col } = lineCounter.linePos(offset);
  return `${name}:${line}:${col}`;
}

/**
 * The value of a parsed YAML document, with a failure of the conversion reported as a bad input
 * file at its line (exit 2): above all the yaml library's guard against alias bombs ("billion
 * laughs": a few lines whose aliases expand to billions of nodes), which throws a bare
 * ReferenceError without a position. Each alias is wrapped to note where it was when it failed.
 */
export function yamlValue(
  yaml: Pick<typeof import('yaml'), 'visit'>,
  doc: Document,
  lineCounter: LineCounter,
  name: string,
): unknown {
  let failedAt: number | undefined;
  yaml.visit(doc, {
    Alias(_key, node) {
      const toJSON = node.toJSON.bind(node);
      node.toJSON = (arg?: unknown, ctx?: unknown) => {
        try {
          return toJSON(arg as never, ctx as never);
        } catch (err) {
          failedAt ??= node.range?.[0]; // the innermost alias: where the expansion went over
          throw err;
        }
      };
    },
  });
  try {
    return doc.toJS();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const reason = message.startsWith('Excessive alias count')
      ? 'its aliases expand to too many nodes (the yaml library stops at 100 per anchor, against "billion laughs" files)'
      : err instanceof RangeError
        ? 'nested too deeply'
        : message;
    throw new CliUsageError(
      `${where(name, lineCounter, failedAt)}: not valid input: ${reason}. Nothing was sent.`,
    );
  }
}
