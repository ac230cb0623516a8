import { handlerDiag } from './diag.js';

function describeError(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'an unprintable error';
  }
}

/** Runs one callback's work; a failure is logged through `diag`, never thrown into LangChain. */
export function guard(callback: string, body: () => void): void {
  try {
    body();
  } catch (error) {
    handlerDiag.warn(`${callback} failed, the run may be missing from the trace: ${describeError(error)}`);
  }
}
