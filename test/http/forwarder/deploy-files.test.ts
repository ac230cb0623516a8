import { execFileSync } from 'node:child_process';
import { type RunningForwarder, startForwarder } from '@aqm/forwarder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  allContainers,
  argValue,
  byKind,
  type Doc,
  manifests,
  portNamed,
  ROOT,
  read,
} from '../../integration/deploy/deploy-files.js';

// Neither Docker, Kubernetes nor a Collector runs here: these tests parse deploy/ and check the
// fields that must agree with the forwarder and with each other. The Collector configurations
// against the Collector's own schema: test/integration/deploy/collector-config.test.ts.
const forwarderManifests = manifests('deploy/kubernetes/forwarder.yaml');
const deployment = byKind(forwarderManifests, 'Deployment');
const service = byKind(forwarderManifests, 'Service');
const containers: Doc[] = deployment.spec.template.spec.containers;
const forwarderContainer = containers.find((c) => c.name === 'forwarder');
const tierManifests = manifests('deploy/kubernetes/loadbalancer.yaml');
const tierContainer = byKind(tierManifests, 'Deployment').spec.template.spec.containers[0];

/** The forwarder's defaults and flags, from its own --help (no fixed port is opened). */
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
        // A string in the dns resolver's config (the Collector decodes strictly).
        expect(exporter.resolver.dns.port).toBe(String(grpcPort));
      } else {
        expect(exporter.resolver.k8s.service).toBe(`${name}.${namespace}`);
        expect(exporter.resolver.k8s.ports).toEqual([grpcPort]);
      }
      for (const signal of ['traces', 'logs']) {
        expect(config.service.pipelines[signal].exporters).toEqual(['loadbalancing']);
      }
    },
  );

  it('the headless Service selects the forwarder pods and targets the forwarder gRPC port', () => {
    expect(service.spec.clusterIP).toBe('None');
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
    expect(service.spec.ports[0].targetPort).toBe('otlp-grpc');
    const grpcPort = portNamed(forwarderContainer, 'otlp-grpc');
    expect(grpcPort).toBe(service.spec.ports[0].port);
    expect(Number(argValue(forwarderContainer.args, '--grpc-port'))).toBe(grpcPort);
  });

  it('the forwarder CLI has the gRPC receiver flag the manifest and the image use', () => {
    // Issue 31 item 1 (the gRPC receiver of @aqm/forwarder): --grpc-port (gRPC only when given)
    // and the TLS flags the manifest shows in comments.
    const flags = new Set(read('deploy/kubernetes/forwarder.yaml').match(/--grpc[a-z-]*/g));
    expect([...flags].sort()).toEqual([
      '--grpc-port',
      '--grpc-tls-ca-file',
      '--grpc-tls-cert-file',
      '--grpc-tls-key-file',
    ]);
    for (const flag of flags) expect(help).toContain(flag);
    expect(read('deploy/Dockerfile')).toContain('CMD ["--host", "0.0.0.0", "--grpc-port", "4317"]');
  });

  it('the tier sends the forwarder an ingest token it accepts', () => {
    const tokenEnv = tierContainer.env.find((e: Doc) => e.name === 'AQM_FORWARDER_TOKEN');
    const tokensEnv = forwarderContainer.env.find((e: Doc) => e.name === 'AQM_FORWARDER_TOKENS');
    expect(tokenEnv.valueFrom.secretKeyRef).toEqual(tokensEnv.valueFrom.secretKeyRef);
    for (const resolver of ['dns', 'k8s']) {
      const config: Doc = parse(read(`deploy/collector/loadbalancer-${resolver}.yaml`));
      // The Collector's own env expansion (`$` `{env:NAME}`), not a JS template.
      expect(config.exporters.loadbalancing.protocol.otlp.headers.authorization).toBe(
        `Bearer $\{env:${tokenEnv.name}}`,
      );
    }
  });

  it('the tier manifest runs deploy/collector/loadbalancer-k8s.yaml', () => {
    const configMap = byKind(tierManifests, 'ConfigMap');
    expect(parse(configMap.data['config.yaml'])).toEqual(
      parse(read('deploy/collector/loadbalancer-k8s.yaml')),
    );
    const volumes = byKind(tierManifests, 'Deployment').spec.template.spec.volumes;
    expect(volumes.find((v: Doc) => v.configMap)?.configMap.name).toBe(configMap.metadata.name);
    expect(tierContainer.args).toEqual(['--config=/etc/otelcol/config.yaml']);
    expect(tierContainer.volumeMounts[0].mountPath).toBe('/etc/otelcol');
  });

  it('the k8s resolver may watch the Service endpoints', () => {
    const rbac = manifests('deploy/kubernetes/loadbalancer-rbac.yaml');
    const role = byKind(rbac, 'Role');
    expect(role.metadata.namespace).toBe(service.metadata.namespace);
    expect(role.rules.flatMap((rule: Doc) => rule.resources)).toEqual(['endpoints', 'endpointslices']);
    expect(role.rules[0].verbs).toEqual(['get', 'list', 'watch']);
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

  it('runs the forwarder alone (no Collector sidecar)', () => {
    expect(containers.map((c) => c.name)).toEqual(['forwarder']);
    expect(byKind(forwarderManifests, 'ConfigMap')).toBeUndefined();
  });

  it('probes paths the forwarder answers 200 on its HTTP port', async () => {
    for (const probe of [forwarderContainer.readinessProbe, forwarderContainer.livenessProbe]) {
      expect(probe.httpGet.port).toBe('otlp-http');
      expect((await fetch(`${forwarder.url}${probe.httpGet.path}`)).status).toBe(200);
    }
    expect(forwarderContainer.readinessProbe.httpGet.path).toBe('/readyz');
    expect(forwarderContainer.livenessProbe.httpGet.path).toBe('/healthz');
    const httpPort = portNamed(forwarderContainer, 'otlp-http');
    expect(Number(argValue(forwarderContainer.args, '--port'))).toBe(httpPort);
    expect(help).toContain(`port (default ${httpPort}`);
  });

  it('gives the forwarder time to deliver what it holds before it is killed', () => {
    const preStop = forwarderContainer.lifecycle.preStop.sleep.seconds;
    // The tier's k8s resolver drops the pod at once, the dns one within its interval.
    const dns: Doc = parse(read('deploy/collector/loadbalancer-dns.yaml'));
    expect(preStop).toBeGreaterThan(Number.parseInt(dns.exporters.loadbalancing.resolver.dns.interval, 10));
    // preStop + rootGraceMs (1 s) + shutdownTimeoutMs (10 s), the defaults --help and the otel options state.
    expect(help).toContain('(default 1000)');
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      preStop + 1 + 10 + 5,
    );
  });

  it('runs every container as non-root with secrets from a Secret, never inline', () => {
    for (const doc of [...forwarderManifests, ...tierManifests].filter((d) => d.kind === 'Deployment')) {
      const podSecurity = doc.spec.template.spec.securityContext;
      expect(podSecurity.runAsNonRoot).toBe(true);
      expect(podSecurity.runAsUser).toBeGreaterThan(0);
    }
    for (const { container } of allContainers()) {
      expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
      for (const variable of container.env ?? []) {
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
    expect(last).toMatch(/^EXPOSE 4318 4317$/m);
    expect(last).toContain('ENTRYPOINT ["node", "/app/bin/aqm-forwarder.js"]');
    const image = forwarderContainer.image as string;
    expect(dockerfile).toContain(`-t ${image}`);
  });
});
