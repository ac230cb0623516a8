import { COMPONENTS, type Shape, type Struct, TOP } from './collector-schema.js';

// Checks a parsed Collector configuration against the transcription in collector-schema.ts, the
// way the Collector's decoder would: every key must be one the component decodes (ErrorUnused),
// and since v0.108 values are typed strictly (no number into a string field, no "5000" into an
// int). Durations must be Go duration strings: the Collector would take a bare number as
// nanoseconds, never what a config file means.

const DURATION = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$|^0$/;
// `${env:NAME}` (or `${NAME}`) is expanded before decoding: allowed inside any string value.
const ENV_REF = /\$\{(env:)?[A-Za-z_][A-Za-z0-9_]*\}/g;

function isStruct(shape: Shape): shape is Struct {
  return typeof shape === 'object' && 'keys' in shape;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value === 'object' ? 'map' : typeof value;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Problems of `value` against `shape`, each naming its path. */
export function checkShape(value: unknown, shape: Shape, path: string): string[] {
  // An empty key (`otlp:` with nothing under it) decodes to the defaults.
  if (value === null && (isStruct(shape) || (typeof shape === 'object' && 'map' in shape))) return [];
  if (typeof shape === 'string') return checkScalar(value, shape, path);
  if ('enum' in shape) {
    return typeof value === 'string' && shape.enum.includes(value)
      ? []
      : [`${path}: ${JSON.stringify(value)} is not one of ${shape.enum.join(', ')}`];
  }
  if ('list' in shape) {
    if (!Array.isArray(value)) return [`${path}: expected a list, got ${typeName(value)}`];
    return value.flatMap((item, i) => checkShape(item, shape.list, `${path}[${i}]`));
  }
  if (!isMap(value)) return [`${path}: expected a map, got ${typeName(value)}`];
  if ('map' in shape) {
    return Object.entries(value).flatMap(([key, item]) => checkShape(item, shape.map, `${path}.${key}`));
  }
  const problems: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    const keyShape = shape.keys[key];
    if (keyShape === undefined) {
      problems.push(`${path}.${key}: not a key here (allowed: ${Object.keys(shape.keys).join(', ')})`);
    } else {
      problems.push(...checkShape(item, keyShape, `${path}.${key}`));
    }
  }
  for (const key of shape.required ?? []) {
    if (!(key in value)) problems.push(`${path}.${key}: required`);
  }
  return problems;
}

function checkScalar(value: unknown, shape: Exclude<Shape, object>, path: string): string[] {
  const bad = (expected: string) => [
    `${path}: expected ${expected}, got ${typeName(value)} ${JSON.stringify(value)}`,
  ];
  switch (shape) {
    case 'any':
      return [];
    case 'string':
      return typeof value === 'string' ? [] : bad('a string (quote it)');
    case 'bool':
      return typeof value === 'boolean' ? [] : bad('true or false');
    case 'int':
      return Number.isInteger(value) ? [] : bad('an integer');
    case 'number':
      return typeof value === 'number' ? [] : bad('a number');
    case 'duration':
      return typeof value === 'string' && DURATION.test(value.replace(ENV_REF, '1s'))
        ? []
        : bad('a duration such as 5s or 300ms');
  }
}

/** The type of a component id `type[/name]`. */
export function componentType(id: string): string {
  return id.split('/')[0] as string;
}

/** Every problem of a whole Collector configuration: top level, each component, the pipelines. */
export function checkCollectorConfig(config: unknown): string[] {
  const problems = checkShape(config, TOP, '');
  if (!isMap(config)) return problems;
  for (const kind of ['receivers', 'processors', 'exporters', 'extensions'] as const) {
    const section = config[kind];
    if (!isMap(section)) continue;
    for (const [id, componentConfig] of Object.entries(section)) {
      const schema = COMPONENTS[kind][componentType(id)];
      if (schema === undefined) {
        problems.push(`${kind}.${id}: component type not transcribed for this Collector version`);
      } else {
        problems.push(...checkShape(componentConfig, schema, `${kind}.${id}`));
      }
    }
  }
  problems.push(...checkReferences(config));
  return problems.map((problem) => problem.replace(/^\./, ''));
}

// service.pipelines and service.extensions may only name components defined above them.
function checkReferences(config: Record<string, unknown>): string[] {
  const service = config.service;
  if (!isMap(service)) return [];
  const defined = (kind: string) => Object.keys(isMap(config[kind]) ? (config[kind] as object) : {});
  const problems: string[] = [];
  const refer = (ids: unknown, kind: string, path: string) => {
    if (!Array.isArray(ids)) return;
    for (const id of ids) {
      if (!defined(kind).includes(id)) problems.push(`${path}: ${id} is not defined under ${kind}`);
    }
  };
  refer(service.extensions, 'extensions', 'service.extensions');
  if (isMap(service.pipelines)) {
    for (const [name, pipeline] of Object.entries(service.pipelines)) {
      if (!['traces', 'logs', 'metrics'].includes(componentType(name))) {
        problems.push(`service.pipelines.${name}: not a signal (traces, logs, metrics)`);
      }
      if (!isMap(pipeline)) continue;
      for (const kind of ['receivers', 'exporters']) {
        // PipelineConfig.Validate: at least one of each.
        if (Array.isArray(pipeline[kind]) && pipeline[kind].length === 0) {
          problems.push(`service.pipelines.${name}.${kind}: empty`);
        }
      }
      for (const kind of ['receivers', 'processors', 'exporters']) {
        refer(pipeline[kind], kind, `service.pipelines.${name}.${kind}`);
      }
    }
  }
  return problems;
}
