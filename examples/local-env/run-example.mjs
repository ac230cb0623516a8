/**
 * What to say about an error: its name and message (and its cause's), or with `DEBUG` set the
 * stack too. Never anything from the environment, so never an API key.
 *
 * @param {unknown} error
 * @returns {string}
 * @example
 * console.error(describeError(new TypeError('bad'))); // 'TypeError: bad'
 */
export function describeError(error) {
  if (!(error instanceof Error)) return String(error);
  if (process.env.DEBUG) return error.stack ?? String(error);
  const cause =
    error.cause instanceof Error && !error.message.includes(error.cause.message)
      ? ` (cause: ${error.cause.message})`
      : '';
  return `${error.name}: ${error.message}${cause}`;
}

/**
 * Runs an example's main function: prints its error and sets the exit code to 1 when it fails.
 * The process then ends by itself once everything is closed, which also shows that the example
 * left nothing running.
 *
 * @param {string} name The example's name, for the error message.
 * @param {() => Promise<void>} main
 * @returns {Promise<void>}
 * @example
 * await runExample('express-openai', async () => { ... });
 */
export async function runExample(name, main) {
  try {
    await main();
  } catch (error) {
    console.error(`\nThe ${name} example failed: ${describeError(error)}`);
    process.exitCode = 1;
  }
}
