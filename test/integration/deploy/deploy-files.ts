import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

// The files of deploy/, parsed. Neither Docker, Kubernetes nor a Collector runs on the project's
// machines: the tests read these files and check them against each other, against the forwarder
// and against the Collector's documented configuration.

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const read = (path: string): string => readFileSync(`${ROOT}${path}`, 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: parsed YAML is checked field by field by the tests.
export type Doc = any;

/** The documents of a multi-document Kubernetes manifest. */
export function manifests(path: string): Doc[] {
  return parseAllDocuments(read(path)).map((d) => d.toJS());
}

export const byKind = (docs: Doc[], kind: string): Doc => docs.find((doc) => doc.kind === kind);

export function portNamed(container: Doc, name: string): number {
  return container.ports.find((p: Doc) => p.name === name).containerPort;
}

export function portOf(endpoint: string): number {
  return Number(new URL(endpoint.includes('://') ? endpoint : `tcp://${endpoint}`).port);
}

export function argValue(args: string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args[at + 1];
}

export const KUBERNETES_FILES = readdirSync(`${ROOT}deploy/kubernetes`)
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => `deploy/kubernetes/${name}`);
export const COLLECTOR_FILES = readdirSync(`${ROOT}deploy/collector`)
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => `deploy/collector/${name}`);

/** A Collector configuration found in deploy/: a file of deploy/collector, or a ConfigMap's file. */
export interface CollectorConfig {
  where: string;
  config: Doc;
}

function looksLikeCollectorConfig(doc: Doc): boolean {
  return (
    typeof doc === 'object' && doc !== null && 'service' in doc && ('receivers' in doc || 'exporters' in doc)
  );
}

/** Every Collector configuration in deploy/, standalone or embedded in a Kubernetes ConfigMap. */
export function collectorConfigs(): CollectorConfig[] {
  const found: CollectorConfig[] = COLLECTOR_FILES.map((where) => ({ where, config: parse(read(where)) }));
  for (const file of KUBERNETES_FILES) {
    for (const doc of manifests(file)) {
      if (doc?.kind !== 'ConfigMap') continue;
      for (const [key, text] of Object.entries<string>(doc.data ?? {})) {
        const config = /\.ya?ml$/.test(key) ? parse(text) : undefined;
        if (looksLikeCollectorConfig(config)) {
          found.push({ where: `${file} ConfigMap ${doc.metadata.name} ${key}`, config });
        }
      }
    }
  }
  return found;
}

/** Every container of every workload in deploy/kubernetes, with the file it is in. */
export function allContainers(): { file: string; container: Doc }[] {
  return KUBERNETES_FILES.flatMap((file) =>
    manifests(file)
      .filter((doc) => doc?.spec?.template?.spec?.containers)
      .flatMap((doc) => doc.spec.template.spec.containers.map((container: Doc) => ({ file, container }))),
  );
}
