import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type RunningForwarder, startForwarder } from '@aqm/forwarder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

// Neither Docker, Kubernetes nor a Collector runs here: these tests parse deploy/ and check the
// fields that must agree with the forwarder and with each other.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: parsed YAML is checked field by field below.
type Doc = any;

const forwarderManifests: Doc[] = parseAllDocuments(read('deploy/kubernetes/forwarder.yaml')).map((d) =>
  d.toJS(),
);
const byKind = (kind: string): Doc => forwarderManifests.find((doc) => doc.kind === kind);
const deployment = byKind('Deployment');
const service = byKind('Service');
const configMap = byKind('ConfigMap');
const containers: Doc[] = deployment.spec.template.spec.containers;
const forwarderContainer = containers.find((c) => c.name === 'forwarder');
const sidecarContainer = containers.find((c) => c.name === 'otelcol');
const sidecar: Doc = parse(read('deploy/collector/forwarder-sidecar.yaml'));

function portNamed(container: Doc, name: string): number {
  return container.ports.find((p: Doc) => p.name === name).containerPort;
}
function portOf(endpoint: string): number {
  return Number(new URL(endpoint.includes('://') ? endpoint : `tcp://${endpoint}`).port);
}
function argValue(args: string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args[at + 1];
}

/** The forwarder's defaults, from its own --help (no fixed port is opened). */
const help = execFileSync(process.execPath, [`${ROOT}packages/forwarder/bin/aqm-forwarder.js`, '--help'], {
  encoding: 'utf8',
});

describe('deploy/: the Collector tier routes each trace to one forwarder', () => {
  it.each(['dns', 'k8s'])(
    'loadbalancer-%s.yaml routes traces and logs by traceID to the headless Service',
    (resolver) => {
      const config: Doc = parse(read(`deploy/collector/loadbalancer-${resolver}.yaml`));
      const exporter = config.exporters.loadbalancing;
      expect(exporter.routing_key).toBe('traceID');
      expect(Object.keys(exporter.resolver)).toEqual([resolver]);
      const grpcPort = service.spec.ports.find((p: Doc) => p.name === 'otlp-grpc').port;
      const { name, namespace } = service.metadata;
      if (resolver === 'dns') {
        expect(exporter.resolver.dns.hostname).toBe(`${name}.${namespace}.svc.cluster.local`);
        expect(exporter.resolver.dns.port).toBe(grpcPort);
      } else {
        expect(exporter.resolver.k8s.service).toBe(`${name}.${namespace}`);
        expect(exporter.resolver.k8s.ports).toEqual([grpcPort]);
      }
      for (const signal of ['traces', 'logs']) {
        expect(config.service.pipelines[signal].exporters).toEqual(['loadbalancing']);
      }
    },
  );

  it('the headless Service selects the forwarder pods and targets the sidecar gRPC port', () => {
    expect(service.spec.clusterIP).toBe('None');
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
    expect(service.spec.ports[0].targetPort).toBe('otlp-grpc');
    expect(portNamed(sidecarContainer, 'otlp-grpc')).toBe(service.spec.ports[0].port);
  });

  it('the k8s resolver may watch the Service endpoints', () => {
    const rbac: Doc[] = parseAllDocuments(read('deploy/kubernetes/loadbalancer-rbac.yaml')).map((d) =>
      d.toJS(),
    );
    const role = rbac.find((doc) => doc.kind === 'Role');
    expect(role.metadata.namespace).toBe(service.metadata.namespace);
    expect(role.rules.flatMap((rule: Doc) => rule.resources)).toEqual(['endpoints', 'endpointslices']);
    expect(role.rules[0].verbs).toEqual(['get', 'list', 'watch']);
  });
});

describe('deploy/: the sidecar hands OTLP to the forwarder in its pod', () => {
  it('is the same file as the ConfigMap of the manifest', () => {
    expect(parse(configMap.data['config.yaml'])).toEqual(sidecar);
  });

  it('receives gRPC on the Service port and sends OTLP/HTTP to the forwarder port with the ingest token', () => {
    expect(portOf(sidecar.receivers.otlp.protocols.grpc.endpoint)).toBe(
      portNamed(sidecarContainer, 'otlp-grpc'),
    );
    const exporter = sidecar.exporters['otlphttp/aqm-forwarder'];
    const forwarderPort = portNamed(forwarderContainer, 'otlp-http');
    expect(exporter.endpoint).toBe(`http://127.0.0.1:${forwarderPort}`);
    expect(Number(argValue(forwarderContainer.args, '--port'))).toBe(forwarderPort);
    expect(help).toContain(`port (default ${forwarderPort}`);
    expect(exporter.compression).toBe('gzip');
    expect(exporter.retry_on_failure.enabled).toBe(true);
    // The Collector's own env expansion (`$` `{env:NAME}`), not a JS template.
    expect(exporter.headers.authorization).toBe(`Bearer $\{env:AQM_FORWARDER_TOKEN}`);
    const tokenEnv = sidecarContainer.env.find((e: Doc) => e.name === 'AQM_FORWARDER_TOKEN');
    const tokensEnv = forwarderContainer.env.find((e: Doc) => e.name === 'AQM_FORWARDER_TOKENS');
    expect(tokenEnv.valueFrom.secretKeyRef).toEqual(tokensEnv.valueFrom.secretKeyRef);
    expect(portOf(sidecar.extensions.health_check.endpoint)).toBe(portNamed(sidecarContainer, 'health'));
  });
});

describe('deploy/: the forwarder pod', () => {
  let forwarder: RunningForwarder;
  beforeAll(async () => {
    forwarder = await startForwarder({
      apiKey: 'deploy-test-key',
      baseUrl: 'http://127.0.0.1:9/api',
      applicationId: '0b7c1f9e-4a55-4d47-9a43-0e3f5e0a1b2c',
      port: 0,
    });
  });
  afterAll(async () => {
    await forwarder?.close();
  });

  it('probes paths the forwarder answers 200 on its OTLP port', async () => {
    for (const probe of [forwarderContainer.readinessProbe, forwarderContainer.livenessProbe]) {
      expect(probe.httpGet.port).toBe('otlp-http');
      expect((await fetch(`${forwarder.url}${probe.httpGet.path}`)).status).toBe(200);
    }
    expect(forwarderContainer.readinessProbe.httpGet.path).toBe('/readyz');
    expect(forwarderContainer.livenessProbe.httpGet.path).toBe('/healthz');
  });

  it('gives the forwarder time to deliver what it holds before it is killed', () => {
    const forwarderPreStop = forwarderContainer.lifecycle.preStop.sleep.seconds;
    const sidecarPreStop = sidecarContainer.lifecycle.preStop.sleep.seconds;
    // The sidecar stops (and flushes into the forwarder) while the forwarder still listens.
    expect(sidecarPreStop).toBeLessThan(forwarderPreStop);
    // preStop + rootGraceMs (1 s) + shutdownTimeoutMs (10 s), the defaults --help and the otel options state.
    expect(help).toContain('(default 1000)');
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      forwarderPreStop + 1 + 10 + 5,
    );
  });

  it('runs as non-root with secrets from a Secret, never inline', () => {
    const podSecurity = deployment.spec.template.spec.securityContext;
    expect(podSecurity.runAsNonRoot).toBe(true);
    expect(podSecurity.runAsUser).toBeGreaterThan(0);
    for (const container of containers) {
      expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
      for (const variable of container.env) {
        if (/KEY|TOKEN/.test(variable.name)) {
          expect(variable.value).toBeUndefined();
          expect(variable.valueFrom.secretKeyRef.name).toBe('aqm-forwarder');
        }
      }
    }
    expect(argValue(forwarderContainer.args, '--host')).toBe('0.0.0.0');
    expect(forwarderContainer.env.map((e: Doc) => e.name)).toContain('AQM_FORWARDER_TOKENS');
    const persistDir = argValue(forwarderContainer.args, '--persist-dir');
    expect(forwarderContainer.volumeMounts.map((m: Doc) => m.mountPath)).toContain(persistDir);
  });

  it('is built by a Dockerfile whose last stage is a small base running as `node`', () => {
    const dockerfile = read('deploy/Dockerfile');
    const stages = dockerfile.split(/^FROM /m).slice(1);
    const last = stages[stages.length - 1] as string;
    expect(last).toMatch(/^node:\d+-(alpine|slim)/);
    expect(last).toMatch(/^USER node$/m);
    expect(last).toMatch(/^EXPOSE 4318$/m);
    expect(last).toContain('ENTRYPOINT ["node", "/app/bin/aqm-forwarder.js"]');
    const image = forwarderContainer.image as string;
    expect(dockerfile).toContain(`-t ${image}`);
  });
});
