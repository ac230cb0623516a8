import { DataDirInUseError } from './store/data-dir-lock.js';

/** The flags a start failure can come from (the options `aqm-server` passed to `startServer`). */
export interface StartFlags {
  port: number;
  host?: string | undefined;
  dataDir?: string | undefined;
}

interface SystemError extends Error {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
}

// Listen errors that say the host names no address to listen on, and those that are about the port.
const HOST_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EADDRNOTAVAIL']);
const PORT_CODES = new Set(['EADDRINUSE', 'EACCES']);

/**
 * The message for a failure of `startServer` that the flags' checks could not foresee (a host that
 * does not resolve, a port in use, a `--data-dir` that cannot be a folder), said in terms of the
 * flag behind it, with the system's own message in parentheses. Other errors keep their message.
 */
export function describeStartError(error: unknown, flags: StartFlags): string {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof DataDirInUseError) return error.message.replace(/^dataDir /, '--data-dir ');
  const { code, syscall, path } = error as SystemError;
  const host = flags.host ?? '127.0.0.1';
  if (typeof code === 'string' && (syscall === 'getaddrinfo' || HOST_CODES.has(code))) {
    return `--host ${host}: cannot listen there (${error.message})`;
  }
  if (typeof code === 'string' && syscall === 'listen' && PORT_CODES.has(code)) {
    const why = code === 'EADDRINUSE' ? 'the port is in use' : 'not allowed to listen on that port';
    return `--port ${flags.port}: cannot listen on ${host}, ${why} (${error.message}); pass another --port, or --port 0 for a free one`;
  }
  // The store creates and locks the folder first: a system error on a path comes from there.
  if (flags.dataDir !== undefined && typeof path === 'string') {
    return `--data-dir ${flags.dataDir}: cannot keep the data there (${error.message})`;
  }
  return error.message;
}
