import { createServer } from 'node:http';

/**
 * A stand-in for the backend the app already exported to (a collector, Jaeger, a vendor): an
 * OTLP/HTTP receiver on loopback that takes JSON trace exports and keeps the trace ids it saw.
 *
 * @returns {Promise<{ tracesUrl: string, traceIds: Set<string>, close: () => Promise<void> }>}
 * @example
 * const backend = await startOtherBackend();
 * console.log(backend.traceIds.size);
 */
export async function startOtherBackend() {
  const traceIds = new Set();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const resource of body.resourceSpans ?? [])
          for (const scope of resource.scopeSpans ?? [])
            for (const span of scope.spans ?? []) traceIds.add(span.traceId);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    tracesUrl: `http://127.0.0.1:${server.address().port}/v1/traces`,
    traceIds,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
