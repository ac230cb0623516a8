import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './run-node.js';

/**
 * The fenced code blocks of the repository's Markdown files, with where they are, so a check of a
 * block can point at the README line a reader sees. A block can carry, in an HTML comment right
 * before it (blank lines between allowed; GitHub and npm show nothing of it):
 *
 * - `<!-- typecheck prelude` … `-->`: code the block assumes (imports, an `app`), type-checked in
 *   front of it, so a fragment of a program is checked in the context the prose gives it;
 * - `<!-- typecheck skip: reason -->`: not type-checked, for the reason given (required).
 */
export interface Fence {
  /** Path of the Markdown file from the repository root. */
  readme: string;
  /** Info string's first word: `ts`, `js`, `sh`, `text`, … (empty when none). */
  lang: string;
  /** The block's text, its indentation (a block inside a list item) removed. */
  body: string;
  /** 1-based line of the Markdown file that holds the block's first line of code. */
  line: number;
  /** Offsets of the whole block (fences included) in the file. */
  start: number;
  end: number;
  /** The `typecheck prelude` comment before it: code, and the file line of its first line. */
  prelude: { code: string; line: number } | undefined;
  /** The reason of a `typecheck skip:` comment before it. */
  skip: string | undefined;
}

const FENCE = /^( *)```(\w*)[^\n]*\n([\s\S]*?)^ *```$/gm;
const DIRECTIVE = /^<!--\s*typecheck\s+(prelude|skip:)([\s\S]*?)-->$/;

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Every fenced block of a Markdown file, in order. */
export function fencesOf(readme: string): Fence[] {
  const text = readFileSync(join(ROOT, readme), 'utf8');
  return [...text.matchAll(FENCE)].map((m) => {
    const start = m.index ?? 0;
    const indent = m[1]?.length ?? 0;
    const raw = m[3] ?? '';
    const body = raw
      .split('\n')
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    // The HTML comment that ends right before the block (only blank space between), if any.
    const commentStart = text.lastIndexOf('<!--', start);
    const comment = commentStart < 0 ? '' : text.slice(commentStart, start).trimEnd();
    const before =
      comment.endsWith('-->') && !comment.slice(0, -3).includes('-->') ? DIRECTIVE.exec(comment) : null;
    let prelude: Fence['prelude'];
    let skip: string | undefined;
    if (before !== null) {
      const content = before[2] ?? '';
      if (before[1] === 'prelude') {
        const firstCodeLine = lineAt(text, commentStart) + 1;
        prelude = { code: content.replace(/^[^\n]*\n/, '').replace(/\s+$/, ''), line: firstCodeLine };
      } else skip = content.trim();
    }
    return {
      readme,
      lang: m[2] ?? '',
      body,
      line: lineAt(text, start) + 1,
      start,
      end: start + m[0].length,
      prelude,
      skip,
    };
  });
}

function readmesIn(folder: string): string[] {
  if (!existsSync(join(ROOT, folder))) return [];
  return readdirSync(join(ROOT, folder))
    .map((name) => join(folder, name, 'README.md'))
    .filter((path) => existsSync(join(ROOT, path)));
}

/** The packages' READMEs (what npm shows), from the repository root. */
export const PACKAGE_READMES = readmesIn('packages');

function markdownIn(folder: string): string[] {
  if (!existsSync(join(ROOT, folder))) return [];
  return readdirSync(join(ROOT, folder))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(folder, name));
}

/** Every Markdown file users read code from: the root README, the packages' (and their docs/), the examples', docs/. */
export const ALL_READMES = [
  'README.md',
  ...PACKAGE_READMES,
  ...readdirSync(join(ROOT, 'packages')).flatMap((name) => markdownIn(join('packages', name, 'docs'))),
  ...readmesIn('examples'),
  ...markdownIn('docs'),
];

/** Info strings of the blocks that are TypeScript or JavaScript. */
export const CODE_LANGS = new Set(['ts', 'typescript', 'js', 'javascript']);
