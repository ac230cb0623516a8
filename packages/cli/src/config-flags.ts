import { CliUsageError } from './usage-error.js';

/** A flag value as JSON: numbers and booleans as such, anything else as text. */
function scalar(text: string): string | number | boolean {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)) return Number(text);
  return text;
}

/** Parses `key=value,key=value` options; each key once. */
function parseOptions(text: string, flag: string, whole: string): Record<string, string | number | boolean> {
  const options: Record<string, string | number | boolean> = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    if (eq <= 0 || key === '') {
      throw new CliUsageError(`${flag} "${whole}": options must be key=value pairs separated by commas.`);
    }
    if (key in options) throw new CliUsageError(`${flag} "${whole}": option ${key} is given twice.`);
    options[key] = scalar(part.slice(eq + 1).trim());
  }
  return options;
}

/**
 * Parses `--metric TYPE[:KEY=VALUE,...]` into a monitoring metric, e.g.
 * `answer_relevance:threshold=0.7` → `{ type: 'answer_relevance', threshold: 0.7 }`.
 */
export function parseMetricFlag(text: string): { type: string } & Record<string, unknown> {
  const colon = text.indexOf(':');
  const type = (colon < 0 ? text : text.slice(0, colon)).trim();
  if (type === '')
    throw new CliUsageError(`--metric "${text}": give the metric type, e.g. answer_relevance:threshold=0.7.`);
  if (colon < 0) return { type };
  return { ...parseOptions(text.slice(colon + 1), '--metric', text), type };
}

/**
 * Groups `--plugin CATEGORY:NAME` ids by their category, the shape of monitoring `plugins`:
 * `['harmful:hate', 'pii:direct']` → `{ harmful: ['harmful:hate'], pii: ['pii:direct'] }`.
 */
export function groupPlugins(ids: string[]): Record<string, string[]> {
  const plugins: Record<string, string[]> = {};
  for (const id of ids) {
    const category = id.split(':')[0]?.trim() ?? '';
    if (!id.includes(':') || category === '') {
      throw new CliUsageError(
        `--plugin "${id}": give a plugin id of the form category:name, e.g. harmful:hate.`,
      );
    }
    plugins[category] = [...(plugins[category] ?? []), id];
  }
  return plugins;
}

/** A guardrail validator as given on the command line. */
export interface ValidatorFlag {
  type: string;
  on_fail: string;
  config?: Record<string, unknown>;
}

/**
 * Parses `--input`/`--output TYPE:ON_FAIL[:KEY=VALUE,...]` into a validator, e.g.
 * `prompt-injection:fail:threshold=0.6`. A list setting takes values joined with `|`:
 * `pii:mask:entities=EMAIL_ADDRESS|PHONE_NUMBER`.
 */
export function parseValidatorFlag(text: string, flag: string): ValidatorFlag {
  const [type = '', onFail = '', ...rest] = text.split(':');
  if (type.trim() === '' || onFail.trim() === '') {
    throw new CliUsageError(
      `${flag} "${text}": give TYPE:ON_FAIL, e.g. pii:mask (on_fail is fail, mask or filter).`,
    );
  }
  const validator: ValidatorFlag = { type: type.trim(), on_fail: onFail.trim() };
  if (rest.length > 0) {
    const options = parseOptions(rest.join(':'), flag, text);
    validator.config = Object.fromEntries(
      Object.entries(options).map(([key, value]) =>
        typeof value === 'string' && value.includes('|') ? [key, value.split('|')] : [key, value],
      ),
    );
  }
  return validator;
}
