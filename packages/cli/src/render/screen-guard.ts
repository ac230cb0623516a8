import { randomBytes } from 'node:crypto';
import { visibleControls } from '@aqm/wire';
import type { CliOutputStream } from '../io.js';

const CSI = '\u001b[';

/**
 * The one gate everything `aqm` prints goes through: control characters are made visible
 * ({@link visibleControls}), except the colours `aqm` applies itself. Its palette writes them with
 * a marker that only this run knows (a private-use character and 16 random hex digits, standing
 * for `ESC[`), turned into real escapes after the rest is made safe: text from the service can
 * never pass as a style, whatever it holds.
 */
export class ScreenGuard {
  /** What the palette writes instead of `ESC[` (the CSI introducer) on a guarded stream. */
  readonly csi = `\uE000${randomBytes(8).toString('hex')}[`;

  /** The text as it may reach a terminal. Linear in its length. */
  text(chunk: string): string {
    const safe = visibleControls(chunk);
    return safe.includes(this.csi) ? safe.replaceAll(this.csi, CSI) : safe;
  }

  /** A stream that writes through {@link text}, with the target's terminal facts. */
  stream(target: CliOutputStream): CliOutputStream {
    return {
      write: (chunk: string) => target.write(this.text(chunk)),
      get isTTY() {
        return target.isTTY;
      },
      get columns() {
        return target.columns;
      },
    };
  }
}
