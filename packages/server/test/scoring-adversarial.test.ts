import { MAX_BODY_BYTES, MAX_CONFIG_LIST_ITEMS, MAX_SHORT_TEXT, type Validator } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { metricDefinitions } from '../src/catalog/eval-metrics.js';
import { findPatterns } from '../src/scoring/findings.js';
import { guardrailValidators } from '../src/scoring/guardrails/registry.js';
import { runGuardrails, scoreTrace } from '../src/scoring/index.js';
import { PII_PATTERNS, SECRET_PATTERNS } from '../src/scoring/patterns.js';
import { findPhrases, INJECTION_PHRASES, TOXIC_TERMS } from '../src/scoring/phrase-lists.js';
import { contentTerms, SENTENCE_END, sentenceSpans, words } from '../src/scoring/text.js';
import { openStore } from '../src/store/store.js';
import { applicationRecord, trace } from './fixtures.js';

/**
 * Every pattern of the service that runs on user text, against adversarial texts at the body
 * limit. Each family is a long run of what makes some regex backtrack: a super-linear pattern
 * takes minutes to hours on 5 MiB (the password lookbehind took 16.6 s on 160 KiB of blanks),
 * a linear one well under a second. The bound is generous for a slow shared CI machine and still
 * orders of magnitude below what a quadratic pattern needs; a first run on 1/64 of the text
 * reports such a pattern without waiting hours for it. Figures: docs/reliability.md
 * (AQM_ADVERSARIAL_REPORT=1 prints them).
 */
const BOUND_MS = 30_000;
const SIZE = MAX_BODY_BYTES - 1024;

const FAMILIES: Record<string, string> = {
  blanks: ' ',
  'password then blanks': 'password',
  'e-mail local part a%': 'a%',
  'dots then x': '.',
  'private key BEGIN without END': '-----BEGIN RSA PRIVATE KEY-----\n',
  'digit groups': '1 ',
  'digit dashes': '1-',
  'domain labels a@a.': 'a@a.',
  'sk- keys': 'sk-a1',
  'injection words': 'ignore ',
  'IBAN groups': 'AB12 ',
  'quoted password values': 'password="',
  'CJK and full stops': '日本。',
  'e-mails (many findings)': 'a@b.co ',
};

function fill(unit: string, size = SIZE): string {
  const head = unit === 'password' ? 'password' : '';
  const body = head === '' ? unit : ' \t';
  return (head + body.repeat(Math.ceil(size / body.length))).slice(0, size) + (unit === '.' ? 'x' : '');
}

const ALL_METRICS = metricDefinitions.map((definition) => ({ type: definition.name }));
const TOPICS = Array.from({ length: MAX_CONFIG_LIST_ITEMS }, (_, i) =>
  `ignore topic ${i} ${'a'.repeat(20)}`.slice(0, MAX_SHORT_TEXT),
);
const VALIDATOR_CONFIG: Record<string, Record<string, unknown>> = { 'banned-topics': { topics: TOPICS } };

/** Each pattern that runs on user text, by name: run on every family at the body limit. */
const PATTERNS: Array<[string, (text: string) => unknown]> = [
  ...[...PII_PATTERNS, ...SECRET_PATTERNS].map((pattern): [string, (text: string) => unknown] => [
    `pattern ${pattern.entity}`,
    (text) => findPatterns(text, [pattern]).length,
  ]),
  ...[...INJECTION_PHRASES, ...TOXIC_TERMS].map((phrase): [string, (text: string) => unknown] => [
    `phrase /${phrase.regex.source.slice(24, 60)}.../`,
    (text) => findPhrases(text, [phrase], 'X').length,
  ]),
  ['sentence ends', (text) => [...text.matchAll(SENTENCE_END)].length],
  ['sentences', (text) => sentenceSpans(text).length],
  ['words', (text) => words(text).length],
  ['content terms', (text) => contentTerms(text).length],
];

/**
 * What runs those patterns together (validators, guardrail runs with mask and filter, every
 * metric): run on one text at the body limit made of a long run of each family.
 */
const PIPELINES: Array<[string, (text: string) => unknown]> = [
  ...[...guardrailValidators.values()].map((validator): [string, (text: string) => unknown] => [
    `validator ${validator.type}`,
    (text) => validator.detect(text, VALIDATOR_CONFIG[validator.type]).findings.length,
  ]),
  [
    'guardrails mask + filter',
    (text) =>
      runGuardrails('output', text, [
        { type: 'pii', on_fail: 'filter' },
        { type: 'secrets', on_fail: 'mask' },
        { type: 'banned-topics', on_fail: 'mask', config: VALIDATOR_CONFIG['banned-topics'] },
      ] satisfies Validator[]).finalContent.length,
  ],
  [
    'every metric',
    (text) =>
      scoreTrace(
        {
          prompt: text,
          response: text,
          context: [text],
          startTime: '2026-01-01T00:00:00Z',
          endTime: '2026-01-01T00:00:01Z',
          status: 'success',
        },
        ALL_METRICS,
      ).length,
  ],
];

const report = process.env.AQM_ADVERSARIAL_REPORT === '1';

/** How much of the text a first, small run takes: its time times this is a lower bound for the whole. */
const PROBE = 64;

/**
 * Runs each operation on `text`; returns those over the bound (and prints figures when asked).
 * Each first runs on 1/64 of the text: time grows at least linearly, so when 64 times that is
 * over the bound already, the operation is reported without running on the whole text (a
 * quadratic pattern would take hours there).
 */
function overBound(
  label: string,
  text: string,
  operations: Array<[string, (text: string) => unknown]>,
): string[] {
  const slow: string[] = [];
  const lines: string[] = [];
  const probe = text.slice(0, Math.ceil(text.length / PROBE));
  for (const [name, run] of operations) {
    let started = performance.now();
    run(probe);
    const probeMs = performance.now() - started;
    if (probeMs * PROBE > BOUND_MS) {
      slow.push(`${name}: ${Math.round(probeMs)} ms on 1/${PROBE} of the text`);
      continue;
    }
    started = performance.now();
    run(text);
    const ms = performance.now() - started;
    if (ms > BOUND_MS) slow.push(`${name}: ${Math.round(ms)} ms`);
    if (report) lines.push(`${label}\t${name}\t${ms.toFixed(1)}`);
  }
  if (report) process.stdout.write(`${lines.join('\n')}\n`);
  return slow;
}

describe(`every pattern on adversarial text at the body limit (${SIZE} characters) within ${BOUND_MS} ms`, () => {
  for (const [family, unit] of Object.entries(FAMILIES)) {
    it(family, { timeout: 30 * 60_000 }, () => {
      expect(overBound(family, fill(unit), PATTERNS)).toEqual([]);
    });
  }

  it('validators, guardrail runs and every metric on runs of every family', { timeout: 30 * 60_000 }, () => {
    const share = Math.floor(SIZE / Object.keys(FAMILIES).length);
    const mixed = Object.values(FAMILIES)
      .map((unit) => fill(unit, share))
      .join('\n');
    expect(overBound('mixed', mixed, PIPELINES)).toEqual([]);
  });
});

describe('search on stored text at the body limit', () => {
  it('takes about as long with a 1,000-character needle as with a 10-character one', {
    timeout: 120_000,
  }, () => {
    const store = openStore();
    try {
      const app = applicationRecord('p', 'search', '2026-01-01T00:00:00.000Z');
      store.applications.insert(app);
      const half = Math.floor(SIZE / 2);
      store.traces.replace(
        app.id,
        trace('2026-01-01T00:00:00.000Z', 5, { prompt: 'a'.repeat(half), response: 'a'.repeat(half) }),
      );
      const timed = (needle: string) => {
        const started = performance.now();
        const { total } = store.traces.list(app.id, { page: 1, limit: 20, search: needle });
        expect(total).toBe(0);
        return performance.now() - started;
      };
      const short = timed(`${'a'.repeat(9)}b`);
      const long = timed(`${'a'.repeat(999)}b`);
      // SQLite's instr() compared the needle at every position: the long needle took ~30x longer
      // (4 s on 5 MiB); a near-linear search takes about the same time for both.
      if (report)
        process.stdout.write(
          `search\t10 characters\t${short.toFixed(1)}\nsearch\t1000 characters\t${long.toFixed(1)}\n`,
        );
      expect(long).toBeLessThan(5 * short + 500);
    } finally {
      store.close();
    }
  });
});
