import { visibleControls } from '@aqm/wire';

/** The environment variables options are read from. */
export type Env = Record<string, string | undefined>;

/** A value as shown in an option's error message (long text cut, control characters escaped). */
export function describe(value: unknown): string {
  if (value === null) return '`null`';
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  const text = String(value);
  // A value from the environment may hold control characters: shown escaped, never obeyed.
  return `\`${visibleControls(text.length > 60 ? `${text.slice(0, 60)}…` : text)}\` (${typeof value})`;
}

/** An option's name in a message, with the variable it came from. */
export function label(name: string, envVar: string | undefined): string {
  return envVar === undefined ? `\`${name}\`` : `\`${name}\` (from the ${envVar} environment variable)`;
}

/** The option when given, else the variable `name` when set and not empty. */
export function fromEnv<T>(
  value: T | undefined,
  env: Env,
  name: string,
): { value: unknown; envVar?: string } {
  if (value !== undefined) return { value };
  const variable = env[name];
  return variable === undefined || variable === '' ? { value: undefined } : { value: variable, envVar: name };
}
