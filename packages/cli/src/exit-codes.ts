/**
 * The exit codes of `aqm`, documented in the README: scripts can tell a bad command line from a
 * failure of the service.
 */
export const EXIT_CODES = {
  /** The command did what was asked. */
  ok: 0,
  /** The service refused the request (400, 401, 404, 409, 429, 5xx) or could not be reached. */
  serviceError: 1,
  /** The command line or an input file was wrong (unknown flag, bad value, invalid file); nothing was sent. */
  usageError: 2,
  /** Interrupted (Ctrl-C) before a one-shot command finished. `traces tail` exits 0 on Ctrl-C. */
  interrupted: 130,
} as const;

/** One of the values of {@link EXIT_CODES}. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
