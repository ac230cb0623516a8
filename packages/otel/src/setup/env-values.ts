import { type EnvCheck, envVariable } from './env-variables.js';

/**
 * A variable set to something its check refuses: its name, what it accepts and the raw value.
 * Readers turn it into their one warning (`@aqm/otel` and `@aqm/auto` then turn themselves off;
 * the forwarder refuses to start), never into an exception reaching the app.
 */
export class EnvValueError extends Error {
  override readonly name = 'AqmEnvValueError';

  constructor(
    readonly variable: string,
    readonly expectation: string,
    readonly value: string,
  ) {
    super(`${variable} must be ${expectation}, got \`${value}\``);
  }
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/**
 * A flag's value: `true` for `true`, `1`, `yes`, `on`, `false` for `false`, `0`, `no`, `off` (any
 * case), `undefined` for anything else. The words of every flag variable, `AQM_*` or not.
 *
 * @example
 * flagValue('Yes'); // true
 */
export function flagValue(value: string): boolean | undefined {
  const word = value.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  return FALSE_WORDS.has(word) ? false : undefined;
}

/** What a check accepts, as said in a warning. */
export function expectationOf(check: EnvCheck): string {
  switch (check.kind) {
    case 'text':
      return 'some text';
    case 'flag':
      return 'true or false';
    case 'number':
      return `a number from ${check.min} to ${check.max}`;
    case 'integer':
      return `an integer from ${check.min} to ${check.max}`;
    case 'choice':
      return check.values.join(' or ');
  }
}

function parse(check: EnvCheck, value: string): string | number | boolean | undefined {
  switch (check.kind) {
    case 'text':
      return value;
    case 'flag':
      return flagValue(value);
    case 'number': {
      const parsed = Number(value);
      return Number.isFinite(parsed) && parsed >= check.min && parsed <= check.max ? parsed : undefined;
    }
    case 'integer': {
      const parsed = Number(value);
      return /^\d+$/.test(value) && parsed >= check.min && parsed <= check.max ? parsed : undefined;
    }
    case 'choice': {
      const word = value.toLowerCase();
      return check.values.includes(word) ? word : undefined;
    }
  }
}

/**
 * The value of a variable of {@link ENV_VARIABLES} with a shared check, parsed: `undefined` when
 * unset or blank (a blank variable counts as unset); throws an {@link EnvValueError} when its
 * check refuses it. Every package reads these variables through here, so that a value means the
 * same, and is refused the same, wherever it is read.
 *
 * @example
 * readEnv<number>({ AQM_SAMPLE_RATE: '0.5' }, 'AQM_SAMPLE_RATE'); // 0.5
 */
export function readEnv<T extends string | number | boolean>(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): T | undefined {
  const { check } = envVariable(name);
  if (check === undefined) throw new Error(`${name} has no shared check`);
  const value = env[name]?.trim();
  if (value === undefined || value === '') return undefined;
  const parsed = parse(check, value);
  if (parsed === undefined) throw new EnvValueError(name, expectationOf(check), value);
  return parsed as T;
}
