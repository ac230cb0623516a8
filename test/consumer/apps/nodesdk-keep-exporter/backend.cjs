// The other backend of the nodesdk-keep-exporter apps: an OTLP/HTTP JSON receiver on loopback
// that keeps the trace ids it receives.
const { createServer } = require('node:http');

exports.startOtherBackend = async function startOtherBackend() {
  const traceIds = new Set();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resource of body.resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? []) traceIds.add(span.traceId);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    tracesUrl: `http://127.0.0.1:${server.address().port}/v1/traces`,
    traceIds,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
};
