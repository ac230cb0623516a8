import { request } from 'node:http';

/** An answer to {@link rawRequest}: status, headers and body text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Sends one request with its path exactly as given (`fetch` and `URL` would normalise
 * `/v1/%74races`, `//v1/traces` or `..` segments before they reach the server).
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Buffer } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const sent = request({ host: hostname, port: Number(port), method, path, headers: options.headers });
    sent.on('error', reject);
    sent.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    sent.end(options.body);
  });
}
