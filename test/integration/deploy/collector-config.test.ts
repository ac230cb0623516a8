import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkCollectorConfig, componentType } from './collector-check.js';
import { COLLECTOR_IMAGE, ROUTING_KEYS } from './collector-schema.js';
import {
  allContainers,
  argValue,
  byKind,
  type CollectorConfig,
  collectorConfigs,
  type Doc,
  manifests,
  portNamed,
  portOf,
  ROOT,
} from './deploy-files.js';

// Every Collector configuration in deploy/ against the configuration documented for the Collector
// version deploy/ runs (collector-schema.ts says which files of which tags it was read from). A
// Collector binary would do this with `otelcol validate --config=...`; none can be installed here
// (only the npm registry is reachable), so the schema is transcribed and this test holds the files
// to it: unknown or misspelled keys, missing required keys, wrong types (the Collector decodes
// strictly since v0.108), then what the tier must do for the forwarders.

const configs = collectorConfigs();
const forwarderDocs = manifests('deploy/kubernetes/forwarder.yaml');
const forwarderDeployment = byKind(forwarderDocs, 'Deployment');
const forwarderContainers: Doc[] = forwarderDeployment.spec.template.spec.containers;
const forwarder = forwarderContainers.find((c) => c.name === 'forwarder');
const headless = byKind(forwarderDocs, 'Service');
const tierDocs = manifests('deploy/kubernetes/loadbalancer.yaml');
const tierContainer = byKind(tierDocs, 'Deployment').spec.template.spec.containers[0];

/** The forwarder pods' gRPC port, as the manifest gives it (flag, container port, Service). */
const FORWARDER_GRPC_PORT = Number(argValue(forwarder.args, '--grpc-port'));

const cases = configs.map((found): [string, CollectorConfig] => [found.where, found]);
const loadbalancingOf = (config: Doc): Doc[] =>
  Object.entries<Doc>(config.exporters ?? {})
    .filter(([id]) => componentType(id) === 'loadbalancing')
    .map(([, exporter]) => exporter);

describe('deploy/: the Collector configurations', () => {
  it('are all found: both tier files and the ConfigMap of the tier manifest, and no sidecar', () => {
    expect(configs.map((c) => c.where)).toEqual([
      'deploy/collector/loadbalancer-dns.yaml',
      'deploy/collector/loadbalancer-k8s.yaml',
      'deploy/kubernetes/loadbalancer.yaml ConfigMap aqm-otelcol-loadbalancer config.yaml',
    ]);
    expect(existsSync(`${ROOT}deploy/collector/forwarder-sidecar.yaml`)).toBe(false);
  });

  it.each(cases)(
    '%s: every key is one Collector contrib 0.120.0 documents, typed as it decodes it',
    (_, { config }) => {
      expect(checkCollectorConfig(config)).toEqual([]);
    },
  );

  it.each(cases)('%s: traces and logs go by traceID to port 4317 of the forwarder pods', (_, { config }) => {
    expect(FORWARDER_GRPC_PORT).toBe(4317);
    const [exporter, ...others] = loadbalancingOf(config);
    expect(others).toEqual([]);
    expect(ROUTING_KEYS).toContain(exporter.routing_key);
    expect(exporter.routing_key).toBe('traceID');
    for (const signal of ['traces', 'logs']) {
      expect(config.service.pipelines[signal].exporters).toEqual(['loadbalancing']);
    }
    // One resolver: with several the README says k8s silently wins.
    const resolvers = Object.keys(exporter.resolver);
    expect(resolvers).toHaveLength(1);
    const { dns, k8s } = exporter.resolver;
    if (dns) expect(Number(dns.port)).toBe(FORWARDER_GRPC_PORT);
    else expect(k8s.ports).toEqual([FORWARDER_GRPC_PORT]);
    // The resolver supplies each backend's address; an endpoint here would be overridden.
    expect(exporter.protocol.otlp.endpoint).toBeUndefined();
  });

  it.each(cases)(
    '%s: sends the ingest token, with TLS settings that agree with each other',
    (_, { config }) => {
      const otlp = loadbalancingOf(config)[0].protocol.otlp;
      // The Collector's own env expansion (`$` `{env:NAME}`), not a JS template.
      expect(otlp.headers.authorization).toBe(`Bearer $\{env:AQM_FORWARDER_TOKEN}`);
      const tls = otlp.tls ?? {};
      const files = ['ca_file', 'ca_pem', 'cert_file', 'cert_pem', 'key_file', 'key_pem'].filter(
        (k) => k in tls,
      );
      if (tls.insecure === true) {
        expect(files).toEqual([]);
        // bearertokenauth refuses plain connections (RequireTransportSecurity): headers only.
        expect(otlp.auth).toBeUndefined();
      }
      expect('cert_file' in tls).toBe('key_file' in tls);
    },
  );

  it.each(cases)('%s: no trace of the sidecar (no OTLP/HTTP hop over loopback)', (_, { config }) => {
    const text = JSON.stringify(config);
    expect(text).not.toContain('127.0.0.1');
    expect(Object.keys(config.exporters).map(componentType)).toEqual(['loadbalancing']);
  });
});

describe('deploy/: the Collector tier and the forwarder pods', () => {
  it('runs the Collector image whose configuration the schema was transcribed from, and no other', () => {
    const images = allContainers()
      .map(({ container }) => container.image as string)
      .filter((image) => image.startsWith('otel/'));
    expect(images).toEqual([COLLECTOR_IMAGE]);
    expect(tierContainer.image).toBe(COLLECTOR_IMAGE);
  });

  it('the forwarder pod runs the forwarder alone, its gRPC port the headless Service target', () => {
    expect(forwarderContainers.map((c) => c.name)).toEqual(['forwarder']);
    expect(byKind(forwarderDocs, 'ConfigMap')).toBeUndefined();
    expect(portNamed(forwarder, 'otlp-grpc')).toBe(FORWARDER_GRPC_PORT);
    expect(headless.spec.ports).toEqual([
      { name: 'otlp-grpc', port: FORWARDER_GRPC_PORT, targetPort: 'otlp-grpc' },
    ]);
    // /readyz stays on the HTTP port, which also covers the gRPC receiver.
    expect(forwarder.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'otlp-http' });
  });

  it('the tier gets the token from the Secret key the forwarders check, and listens where its config says', () => {
    const tokenRef = tierContainer.env.find((e: Doc) => e.name === 'AQM_FORWARDER_TOKEN').valueFrom
      .secretKeyRef;
    const tokensRef = forwarder.env.find((e: Doc) => e.name === 'AQM_FORWARDER_TOKENS').valueFrom
      .secretKeyRef;
    expect(tokenRef).toEqual(tokensRef);
    const tierConfig = configs.find((c) => c.where.startsWith('deploy/kubernetes/loadbalancer.yaml'))?.config;
    const { grpc, http } = tierConfig.receivers.otlp.protocols;
    expect(portOf(grpc.endpoint)).toBe(portNamed(tierContainer, 'otlp-grpc'));
    expect(portOf(http.endpoint)).toBe(portNamed(tierContainer, 'otlp-http'));
    expect(portOf(tierConfig.extensions.health_check.endpoint)).toBe(portNamed(tierContainer, 'health'));
    expect(tierContainer.readinessProbe.httpGet.port).toBe('health');
    const rbac = manifests('deploy/kubernetes/loadbalancer-rbac.yaml');
    const tierPod = byKind(tierDocs, 'Deployment').spec.template.spec;
    expect(tierPod.serviceAccountName).toBe(byKind(rbac, 'ServiceAccount').metadata.name);
  });
});

describe('the schema check itself', () => {
  const k8s = configs.find((c) => c.where === 'deploy/collector/loadbalancer-k8s.yaml')?.config;
  const dnsConfig = configs.find((c) => c.where === 'deploy/collector/loadbalancer-dns.yaml')?.config;
  const mutated = (base: Doc, change: (copy: Doc) => void): string[] => {
    const copy = structuredClone(base);
    change(copy);
    return checkCollectorConfig(copy);
  };

  it.each<[string, Doc, (copy: Doc) => void, string]>([
    [
      'a misspelled key',
      k8s,
      (c) => {
        c.exporters.loadbalancing.routing_keys = c.exporters.loadbalancing.routing_key;
        delete c.exporters.loadbalancing.routing_key;
      },
      'exporters.loadbalancing.routing_keys: not a key',
    ],
    [
      'a misspelled TLS key',
      k8s,
      (c) => {
        c.exporters.loadbalancing.protocol.otlp.tls = { insecur: true };
      },
      'exporters.loadbalancing.protocol.otlp.tls.insecur: not a key',
    ],
    [
      'a number where the Collector wants a string',
      dnsConfig,
      (c) => {
        c.exporters.loadbalancing.resolver.dns.port = 4317;
      },
      'exporters.loadbalancing.resolver.dns.port: expected a string',
    ],
    [
      'a routing key the exporter does not know',
      k8s,
      (c) => {
        c.exporters.loadbalancing.routing_key = 'traceid';
      },
      'exporters.loadbalancing.routing_key: "traceid" is not one of',
    ],
    [
      'a duration without its unit',
      k8s,
      (c) => {
        c.exporters.loadbalancing.protocol.otlp.retry_on_failure.max_elapsed_time = 300;
      },
      'retry_on_failure.max_elapsed_time: expected a duration',
    ],
    [
      'a missing resolver',
      k8s,
      (c) => {
        delete c.exporters.loadbalancing.resolver;
      },
      'exporters.loadbalancing.resolver: required',
    ],
    [
      'a pipeline naming an undefined exporter',
      k8s,
      (c) => {
        c.service.pipelines.traces.exporters = ['otlphttp'];
      },
      'service.pipelines.traces.exporters: otlphttp is not defined',
    ],
  ])('finds %s', (_, base, change, expected) => {
    const problems = mutated(base, change);
    expect(
      problems.some((p) => p.includes(expected)),
      problems.join('\n'),
    ).toBe(true);
  });
});
