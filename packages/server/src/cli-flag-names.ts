import { checkAppOptions, checkListenOptions, type StartServerOptions } from './options.js';

/** The `aqm-server` flag behind each option of `startServer` (and each field of its one fault rule). */
const OPTION_FLAGS: Record<string, string> = {
  port: '--port',
  host: '--host',
  prefix: '--prefix',
  dataDir: '--data-dir',
  maxRequestsInProgress: '--max-requests-in-progress',
};
const RULE_FLAGS: Record<string, string> = {
  route: '--fault-route',
  rate: '--fault-rate',
  status: '--fault-status',
  retryAfter: '--fault-retry-after',
  latencyMs: '--fault-latency-ms',
  reset: '--fault-reset',
  hang: '--fault-hang',
};

/**
 * The message of a `startServer` option check, said in flags: `options.faults.rules[0].rate must
 * be ...` becomes `--fault-rate must be ...`, so the user reads the flag they typed.
 */
export function inFlagTerms(message: string): string {
  const rule = /^options\.faults\.rules\[\d+\](\.(\w+))?(.*)$/s.exec(message);
  if (rule !== null) {
    const [, , field, rest = ''] = rule;
    const subject = field === undefined ? 'the --fault-* flags' : (RULE_FLAGS[field] ?? `--fault-${field}`);
    // Other fields named in the message are flags too ("needs a status" -> "needs a --fault-status").
    const words = rest.replace(/\b(route|rate|status|retryAfter|latencyMs|reset|hang)\b/g, (w) =>
      w === field ? w : (RULE_FLAGS[w] ?? w),
    );
    return `${subject}${words}`;
  }
  const keyIndex = (i: string) => `--api-key #${Number(i) + 1}`;
  if (message.startsWith('options.apiKeys[')) {
    return message.replace(/options\.apiKeys\[(\d+)\](\.\w+)?/g, (_, i: string) => keyIndex(i));
  }
  if (message.startsWith('options.faults.seed'))
    return message.replace('options.faults.seed', '--fault-seed');
  return message.replace(/^options\.(\w+)/, (whole, name: string) => OPTION_FLAGS[name] ?? whole);
}

/**
 * Runs the checks `startServer` would run on options built from flags, before anything starts.
 * @throws the check's TypeError/RangeError, for the caller to report in flag terms.
 */
export function checkCliOptions(options: StartServerOptions): void {
  checkListenOptions(options);
  checkAppOptions(options);
}
