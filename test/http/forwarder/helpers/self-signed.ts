import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A self-signed EC certificate and its key, `<dir>/<name>.crt` and `<dir>/<name>.key`, with `san`
 * as subjectAltName, made by openssl (node:crypto makes no X.509 certificate). Usable as its own CA.
 */
export function selfSigned(
  dir: string,
  name: string,
  san = 'IP:127.0.0.1,DNS:localhost',
): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  const extensions = join(dir, `${name}.ext`);
  writeFileSync(extensions, `[v3]\nsubjectAltName=${san}\nbasicConstraints=critical,CA:TRUE\n`);
  execFileSync(
    'openssl',
    [
      ...[
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
      ],
      ...['-subj', `/CN=${name}`, '-keyout', key, '-out', cert, '-config', extensions, '-extensions', 'v3'],
    ],
    { stdio: 'pipe' },
  );
  return { cert, key };
}
