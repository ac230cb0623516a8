// Loopback sinks that stand in for the backends: a node:http server on 127.0.0.1, port 0, that
// reads each request, counts what arrived and answers at once. No scoring, no storage: the figures
// are about the app's side, so the sink must cost the exporters nothing but the network round trip.
//
// kind 'aqm': `POST .../applications/{id}/evaluations`, answers `{ success, data: { accepted, traceIds } }`.
// kind 'otlp': `POST` of an OTLP/HTTP JSON trace export, answers `{}` (an empty ExportTraceServiceResponse).
//
// Modes (switchable at run time, for outages and the soak): 'up' answers 200; '503' reads the body and
// answers 503; 'reset' destroys the connection; 'slow' waits `slowMs` before answering 200.
// `latencyMs` (any mode answering 200): every answer waits that long, as a service across a network does.
import { createServer } from 'node:http';

/**
 * @param {{ kind: 'aqm' | 'otlp', apiKey?: string, slowMs?: number, latencyMs?: number }} options
 */
export async function startSink({ kind, apiKey, slowMs = 2000, latencyMs = 0 }) {
  let mode = 'up';
  /** Bytes read from sockets already closed; open ones are added on read (HTTP headers and bodies). */
  let closedSocketBytes = 0;
  /** socket → its bytesRead at the last reset(), so only what came after is counted. */
  const sockets = new Map();
  const counts = { requests: 0, ok: 0, refused: 0, bodyBytes: 0, spans: 0 };
  /** traceId → spans received (otlp) or times received (aqm); only from requests answered 200. */
  const traces = new Map();

  const server = createServer((req, res) => {
    // Anything but a submission (the forwarder's start-up look at its application, a GET) is not
    // counted: answered as an application the key can reach.
    if (kind === 'aqm' && req.method !== 'POST') {
      req.resume();
      answer(res, 200, { success: true, data: { id: req.url?.split('/').pop() ?? '', name: 'bench' } });
      return;
    }
    counts.requests += 1;
    if (mode === 'reset') {
      counts.refused += 1;
      req.socket.destroy();
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      counts.bodyBytes += body.length;
      if (mode === '503') {
        counts.refused += 1;
        answer(res, 503, { success: false, message: 'bench sink is down' });
        return;
      }
      if (kind === 'aqm' && apiKey !== undefined && req.headers['x-api-key'] !== apiKey) {
        counts.refused += 1;
        answer(res, 401, { message: 'Unauthorized' });
        return;
      }
      const reply = kind === 'aqm' ? takeAqm(body) : takeOtlp(body);
      counts.ok += 1;
      const waitMs = mode === 'slow' ? slowMs : latencyMs;
      if (waitMs > 0) setTimeout(() => answer(res, 200, reply), waitMs).unref();
      else answer(res, 200, reply);
    });
  });

  /** Counts the traces of an AQM submission; answers with its distinct trace ids. */
  function takeAqm(body) {
    const ids = [];
    for (const t of JSON.parse(body.toString('utf8')).traces) {
      if (!traces.has(t.traceId)) ids.push(t.traceId);
      traces.set(t.traceId, (traces.get(t.traceId) ?? 0) + 1);
      counts.spans += t.spans?.length ?? 0;
    }
    return { success: true, data: { accepted: ids.length, traceIds: ids } };
  }

  /** Counts the spans of an OTLP JSON export, per trace id. */
  function takeOtlp(body) {
    for (const rs of JSON.parse(body.toString('utf8')).resourceSpans ?? []) {
      for (const ss of rs.scopeSpans ?? []) {
        for (const span of ss.spans ?? []) {
          counts.spans += 1;
          traces.set(span.traceId, (traces.get(span.traceId) ?? 0) + 1);
        }
      }
    }
    return {};
  }

  server.on('connection', (socket) => {
    sockets.set(socket, 0);
    socket.on('close', () => {
      closedSocketBytes += socket.bytesRead - (sockets.get(socket) ?? 0);
      sockets.delete(socket);
    });
  });
  // Exporters keep connections alive; never let an idle one hold the sink open at close().
  server.keepAliveTimeout = 5000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());

  return {
    url: `http://127.0.0.1:${port}`,
    /** @param {'up' | '503' | 'reset' | 'slow'} next */
    setMode(next) {
      mode = next;
    },
    get mode() {
      return mode;
    },
    /** What arrived so far. `completeTraces`: traces with all `spansPerTrace` spans (otlp) or received (aqm). */
    snapshot(spansPerTrace = 2) {
      let wireBytes = closedSocketBytes;
      for (const [socket, offset] of sockets) wireBytes += socket.bytesRead - offset;
      let complete = 0;
      let duplicates = 0;
      for (const n of traces.values()) {
        if (kind === 'aqm') {
          complete += 1;
          duplicates += n - 1;
        } else if (n >= spansPerTrace) complete += 1;
      }
      return { ...counts, wireBytes, distinctTraces: traces.size, completeTraces: complete, duplicates };
    },
    /** Forgets everything received so far (after a warm-up). */
    reset() {
      for (const key of Object.keys(counts)) counts[key] = 0;
      traces.clear();
      closedSocketBytes = 0;
      for (const socket of sockets.keys()) sockets.set(socket, socket.bytesRead);
    },
    async close() {
      for (const socket of sockets.keys()) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function answer(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
