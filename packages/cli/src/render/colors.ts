/** ANSI styles applied to text; every function is the identity when colour is off. */
export interface Palette {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

function style(csi: string, open: number, close: number): (text: string) => string {
  return (text) => `${csi}${open}m${text}${csi}${close}m`;
}

const identity = (text: string) => text;

/**
 * A palette that styles when `enabled`, and returns text unchanged otherwise. `csi` is written
 * where the styles need `ESC[`; `aqm` passes its screen guard's marker, so that only its own
 * styles survive the guard.
 */
export function createPalette(enabled: boolean, csi = '\u001b['): Palette {
  if (!enabled) {
    return {
      enabled,
      bold: identity,
      dim: identity,
      green: identity,
      red: identity,
      yellow: identity,
      cyan: identity,
    };
  }
  return {
    enabled,
    bold: style(csi, 1, 22),
    dim: style(csi, 2, 22),
    green: style(csi, 32, 39),
    red: style(csi, 31, 39),
    yellow: style(csi, 33, 39),
    cyan: style(csi, 36, 39),
  };
}

/**
 * Whether to colour output, by the common conventions: `--no-color` wins, then `FORCE_COLOR`
 * (any value but `0`/`false` forces it on, so tests and CI logs can ask for colour), then
 * `NO_COLOR` (https://no-color.org), then a terminal that is not `TERM=dumb`.
 */
export function shouldUseColor(
  env: Readonly<Record<string, string | undefined>>,
  isTTY: boolean | undefined,
  colorFlag = true,
): boolean {
  if (!colorFlag) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY === true && env.TERM !== 'dumb';
}

/** Removes ANSI styles, to measure or compare what is shown. */
export function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape character is the point
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
