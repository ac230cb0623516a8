import { closedPort } from '../../client/helpers.js';
import { type RecordingProxy, startRecordingProxy } from '../../otel/helpers/recording-proxy.js';
import type { TestService } from '../../otel/helpers/service.js';
import { waitFor } from '../../otel/helpers/wait.js';
import type { FaultSetup } from './fault-cases.js';
import type { SeedFinder } from './seeded-faults.js';

/** The rate of seeded rules: any value works, 0.5 keeps the seed search short. */
const SEEDED_RATE = 0.5;

/** A fault in place: where to send, and what to do once sending started and at the end. */
export interface AppliedFault {
  /** Base URL the exporter or client sends to. */
  baseUrl: string;
  /** Ends an outage once enough submissions failed; resolves at once for other faults. */
  recovery(): Promise<void>;
  close(): Promise<void>;
}

/** Puts `setup` in place in front of `service`'s `POST .../evaluations`. */
export async function applyFault(
  service: TestService,
  setup: FaultSetup,
  seeds: SeedFinder,
): Promise<AppliedFault> {
  const { srv } = service;
  let proxy: RecordingProxy | undefined;
  let baseUrl = srv.url;
  let recovery = async (): Promise<void> => {};
  switch (setup.kind) {
    case 'rule': {
      const every = setup.hits === 'every';
      const rate = every ? 1 : SEEDED_RATE;
      const seed = every ? 1 : await seeds.seedFor(setup.hits as readonly boolean[], rate);
      srv.setFaults({ seed, rules: [{ route: 'evaluations.submit', rate, ...setup.effect }] });
      break;
    }
    case 'refused':
      baseUrl = `http://127.0.0.1:${await closedPort()}/api`;
      break;
    case 'proxy':
      proxy = await startRecordingProxy(srv.url, setup.intercept);
      baseUrl = proxy.url;
      break;
    case 'outage': {
      srv.setFaults({ seed: setup.seed, rules: setup.rules });
      const { requests } = setup;
      recovery = async () => {
        await waitFor(
          () => srv.requestCount('evaluations.submit') >= requests,
          `${requests} failed submissions`,
          10_000,
        );
        srv.setFaults(null);
      };
      break;
    }
  }
  return {
    baseUrl,
    recovery,
    close: async () => {
      srv.setFaults(null);
      await proxy?.close();
    },
  };
}
