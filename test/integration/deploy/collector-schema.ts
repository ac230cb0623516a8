// The OpenTelemetry Collector's configuration keys, transcribed for the version deploy/ pins:
// otel/opentelemetry-collector-contrib 0.120.0 (core modules v0.120.0, configtls v1.26.0).
// No Collector binary runs here (only the npm registry is reachable), so `otelcol validate` is out
// of reach; this transcription stands in for it. Read from, at tag v0.120.0 of
// open-telemetry/opentelemetry-collector:
//   receiver/otlpreceiver/config.go (Protocols, HTTPConfig; Validate: at least one protocol)
//   config/configgrpc/configgrpc.go + README.md (ClientConfig, ServerConfig, KeepaliveClientConfig)
//   config/confighttp/confighttp.go (ServerConfig, CORSConfig)
//   config/configtls/configtls.go (Config, ClientConfig, ServerConfig)
//   config/configretry/backoff.go (BackOffConfig)
//   config/configcompression/compressiontype.go (the compression names)
//   exporter/otlpexporter/config.go + README.md (TimeoutConfig, QueueConfig, retry, batcher)
//   exporter/exporterhelper/internal/queue_sender.go, exporter/exporterbatcher/config.go
//   internal/memorylimiter/config.go (Config and Validate)
//   service/pipelines/config.go (PipelineConfig and Validate)
// and from open-telemetry/opentelemetry-collector-contrib (its 1.3 GB history could not be copied
// here, so the 0.120.0 tag could not be checked out): exporter/loadbalancingexporter/config.go,
// factory.go and README.md in the version that has the k8s resolver's `return_hostnames` (PR
// #35411, Nov 2024) and not yet the composite `routing_attributes` key (PR #36567, Apr 2025), the
// window containing 0.120.0 (2025-02-18); extension/healthcheckextension/config.go likewise.

/** The Collector image deploy/ runs, the version this schema was transcribed from. */
export const COLLECTOR_IMAGE = 'otel/opentelemetry-collector-contrib:0.120.0';

/** What a value must be. A struct lists every key the Collector decodes there: any other is an error. */
export type Shape =
  | 'any'
  | 'string'
  | 'bool'
  | 'int'
  | 'number'
  | 'duration'
  | { enum: readonly string[] }
  | { list: Shape }
  | { map: Shape }
  | Struct;

/** A Go struct decoded by mapstructure (squashed embedded structs flattened into `keys`). */
export interface Struct {
  keys: Record<string, Shape>;
  required?: readonly string[];
}

// config/configtls: Config is squashed into ClientConfig and ServerConfig.
const tlsCommon = {
  ca_file: 'string',
  ca_pem: 'string',
  include_system_ca_certs_pool: 'bool',
  cert_file: 'string',
  cert_pem: 'string',
  key_file: 'string',
  key_pem: 'string',
  min_version: { enum: ['1.0', '1.1', '1.2', '1.3'] },
  max_version: { enum: ['1.0', '1.1', '1.2', '1.3'] },
  cipher_suites: { list: 'string' },
  reload_interval: 'duration',
  curve_preferences: { list: { enum: ['X25519', 'P521', 'P256', 'P384'] } },
} as const satisfies Record<string, Shape>;

const tlsClient: Struct = {
  keys: { ...tlsCommon, insecure: 'bool', insecure_skip_verify: 'bool', server_name_override: 'string' },
};
const tlsServer: Struct = {
  keys: { ...tlsCommon, client_ca_file: 'string', client_ca_file_reload: 'bool' },
};
const auth: Struct = { keys: { authenticator: 'string' }, required: ['authenticator'] };
const compression = { enum: ['gzip', 'zlib', 'deflate', 'snappy', 'zstd', 'lz4', 'none'] } as const;

// config/configgrpc ClientConfig (squashed into the otlp exporter).
const grpcClient = {
  endpoint: 'string',
  compression,
  tls: tlsClient,
  keepalive: { keys: { time: 'duration', timeout: 'duration', permit_without_stream: 'bool' } },
  read_buffer_size: 'int',
  write_buffer_size: 'int',
  wait_for_ready: 'bool',
  headers: { map: 'string' },
  balancer_name: { enum: ['pick_first', 'round_robin'] },
  authority: 'string',
  auth,
} as const satisfies Record<string, Shape>;

// config/configgrpc ServerConfig (confignet.AddrConfig squashed in).
const grpcServer: Struct = {
  keys: {
    endpoint: 'string',
    transport: { enum: ['tcp', 'tcp4', 'tcp6', 'udp', 'udp4', 'udp6', 'unix', 'unixgram', 'unixpacket'] },
    dialer: { keys: { timeout: 'duration' } },
    tls: tlsServer,
    max_recv_msg_size_mib: 'int',
    max_concurrent_streams: 'int',
    read_buffer_size: 'int',
    write_buffer_size: 'int',
    keepalive: {
      keys: {
        server_parameters: {
          keys: {
            max_connection_idle: 'duration',
            max_connection_age: 'duration',
            max_connection_age_grace: 'duration',
            time: 'duration',
            timeout: 'duration',
          },
        },
        enforcement_policy: { keys: { min_time: 'duration', permit_without_stream: 'bool' } },
      },
    },
    auth,
    include_metadata: 'bool',
  },
};

// config/confighttp ServerConfig.
const httpServer = {
  endpoint: 'string',
  tls: tlsServer,
  cors: {
    keys: { allowed_origins: { list: 'string' }, allowed_headers: { list: 'string' }, max_age: 'int' },
  },
  auth: {
    keys: { authenticator: 'string', request_params: { list: 'string' } },
    required: ['authenticator'],
  },
  max_request_body_size: 'int',
  include_metadata: 'bool',
  response_headers: { map: 'string' },
  compression_algorithms: { list: 'string' },
  read_timeout: 'duration',
  read_header_timeout: 'duration',
  write_timeout: 'duration',
  idle_timeout: 'duration',
} as const satisfies Record<string, Shape>;

const backOff: Struct = {
  keys: {
    enabled: 'bool',
    initial_interval: 'duration',
    randomization_factor: 'number',
    multiplier: 'number',
    max_interval: 'duration',
    max_elapsed_time: 'duration',
  },
};
const queue: Struct = {
  keys: { enabled: 'bool', num_consumers: 'int', queue_size: 'int', blocking: 'bool', storage: 'string' },
};

// exporter/otlpexporter Config: timeout (squashed), sending_queue, retry_on_failure, batcher, and
// the gRPC client squashed in.
const otlpExporter: Struct = {
  keys: {
    timeout: 'duration',
    sending_queue: queue,
    retry_on_failure: backOff,
    batcher: {
      keys: { enabled: 'bool', flush_timeout: 'duration', min_size_items: 'int', max_size_items: 'int' },
    },
    ...grpcClient,
  },
};

/** The routing_key values config.go of the loadbalancing exporter accepts in this version. */
export const ROUTING_KEYS = ['service', 'traceID', 'metric', 'resource', 'streamID'] as const;

// exporter/loadbalancingexporter Config. Its own timeout/retry_on_failure/sending_queue (off by
// default, factory.go) wrap the whole exporter; protocol.otlp is the template of each backend's
// otlp exporter, whose `endpoint` the README says not to set (the resolver's address replaces it).
const loadbalancing: Struct = {
  keys: {
    timeout: 'duration',
    retry_on_failure: backOff,
    sending_queue: queue,
    routing_key: { enum: ROUTING_KEYS },
    protocol: { keys: { otlp: otlpExporter }, required: ['otlp'] },
    resolver: {
      keys: {
        static: { keys: { hostnames: { list: 'string' } }, required: ['hostnames'] },
        dns: {
          keys: { hostname: 'string', port: 'string', interval: 'duration', timeout: 'duration' },
          required: ['hostname'],
        },
        k8s: {
          keys: { service: 'string', ports: { list: 'int' }, timeout: 'duration', return_hostnames: 'bool' },
          required: ['service'],
        },
        aws_cloud_map: {
          keys: {
            namespace: 'string',
            service_name: 'string',
            health_status: { enum: ['HEALTHY', 'UNHEALTHY', 'ALL', 'HEALTHY_OR_ELSE_ALL'] },
            interval: 'duration',
            timeout: 'duration',
            port: 'int',
          },
          required: ['namespace', 'service_name'],
        },
      },
    },
  },
  required: ['protocol', 'resolver'],
};

/** Component types by kind, each with the struct its config decodes into. */
export const COMPONENTS: Record<
  'receivers' | 'processors' | 'exporters' | 'extensions',
  Record<string, Struct>
> = {
  receivers: {
    otlp: {
      keys: {
        protocols: {
          keys: {
            grpc: grpcServer,
            http: {
              keys: {
                ...httpServer,
                traces_url_path: 'string',
                metrics_url_path: 'string',
                logs_url_path: 'string',
              },
            },
          },
        },
      },
      required: ['protocols'],
    },
  },
  processors: {
    memory_limiter: {
      keys: {
        check_interval: 'duration',
        limit_mib: 'int',
        spike_limit_mib: 'int',
        limit_percentage: 'int',
        spike_limit_percentage: 'int',
      },
      required: ['check_interval'],
    },
  },
  exporters: { loadbalancing },
  extensions: {
    // contrib extension/healthcheckextension: confighttp.ServerConfig squashed, plus its own keys.
    health_check: {
      keys: {
        ...httpServer,
        path: 'string',
        response_body: { keys: { healthy: 'string', unhealthy: 'string' } },
        check_collector_pipeline: {
          keys: { enabled: 'bool', interval: 'string', exporter_failure_threshold: 'int' },
        },
      },
      required: ['endpoint'],
    },
  },
};

const ids = { list: 'string' } as const;
/** The top level and `service` (service/pipelines PipelineConfig). */
export const TOP: Struct = {
  keys: {
    // Each component is checked against COMPONENTS by its type.
    receivers: { map: 'any' },
    processors: { map: 'any' },
    exporters: { map: 'any' },
    extensions: { map: 'any' },
    connectors: { map: 'any' },
    service: {
      keys: {
        extensions: ids,
        pipelines: {
          map: {
            keys: { receivers: ids, processors: ids, exporters: ids },
            required: ['receivers', 'exporters'],
          },
        },
      },
      required: ['pipelines'],
    },
  },
  required: ['receivers', 'exporters', 'service'],
};
