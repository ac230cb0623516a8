// Command-line flags: `--name value` or `--name=value`, checked against the defaults' types.
// Each flag can also come from the environment as BENCH_<NAME> (dashes as underscores), e.g.
// BENCH_TRACES=5000; a flag wins over the environment.
import { parseArgs } from 'node:util';

/**
 * @template {Record<string, string | number | boolean>} T
 * @param {T} defaults
 * @param {string} usage
 * @param {string[]} [args] the arguments to read (the command line's by default)
 * @returns {T}
 */
export function readFlags(defaults, usage, args = process.argv.slice(2)) {
  return readCommand(defaults, usage, false, args).flags;
}

/**
 * `readFlags` for a command that also takes positional arguments (`bench/compare.mjs <base> [<head>]`).
 * @template {Record<string, string | number | boolean>} T
 * @param {T} defaults
 * @param {string} usage
 * @param {string[]} [args] the arguments to read (the command line's by default)
 * @returns {{ flags: T, positionals: string[] }}
 */
export function readCommand(defaults, usage, allowPositionals = true, args = process.argv.slice(2)) {
  const options = { help: { type: 'boolean', short: 'h' } };
  for (const [name, value] of Object.entries(defaults)) {
    options[name] = { type: typeof value === 'boolean' ? 'boolean' : 'string' };
  }
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({ args, options, strict: true, allowPositionals }));
  } catch (error) {
    fail(`${error.message}\n${usage}`);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const flags = { ...defaults };
  for (const [name, fallback] of Object.entries(defaults)) {
    const fromEnv = process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`];
    const raw = values[name] ?? fromEnv;
    if (raw === undefined) continue;
    if (typeof fallback === 'number') {
      const number = Number(raw);
      if (!Number.isFinite(number) || number <= 0) fail(`--${name} must be a positive number, got ${raw}`);
      flags[name] = number;
    } else if (typeof fallback === 'boolean') {
      flags[name] = raw === true || raw === 'true' || raw === '1';
    } else flags[name] = String(raw);
  }
  return { flags, positionals };
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
