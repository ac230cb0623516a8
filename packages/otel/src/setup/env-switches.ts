import { visibleControls } from '@aqm/wire/light';
import { EnvValueError, readEnv } from './env-values.js';

/** Why the environment turns `@aqm/otel` off, and what to warn about (if anything). */
export interface SwitchedOff {
  reason: string;
  /** Said once when the switch itself was unclear (an unknown `AQM_DISABLED` value). */
  warning?: string;
}

/**
 * `OTEL_SDK_DISABLED=true` (OpenTelemetry's switch: only `true`, any case, counts) or
 * `AQM_DISABLED=true` (also `1`, `yes`, `on`) turn every component off, whatever the options say:
 * they are the operator's switch. An `AQM_DISABLED` that is neither true nor false turns it off
 * too, with a warning: whoever set it meant to change something, and sending is the riskier guess.
 *
 * @example
 * switchedOff({ AQM_DISABLED: 'true' }); // { reason: 'AQM_DISABLED is true' }
 */
export function switchedOff(env: Record<string, string | undefined>): SwitchedOff | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { reason: 'OTEL_SDK_DISABLED is true' };
  let disabled: boolean | undefined;
  try {
    // The words of ENV_VARIABLES' flags, as @aqm/auto reads the same variable.
    disabled = readEnv<boolean>(env, 'AQM_DISABLED');
  } catch (error) {
    if (!(error instanceof EnvValueError)) throw error;
  }
  if (disabled !== undefined) return disabled ? { reason: 'AQM_DISABLED is true' } : undefined;
  const value = env.AQM_DISABLED?.trim() ?? '';
  if (value === '') return undefined;
  const shown = visibleControls(value.length > 20 ? `${value.slice(0, 20)}…` : value);
  return {
    reason: 'AQM_DISABLED is not true or false',
    warning: `AQM_DISABLED must be true or false, got \`${shown}\`; taken as true, so no trace is sent.`,
  };
}
