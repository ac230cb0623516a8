import type { FastifyReply, FastifyRequest } from 'fastify';
import { describeValue } from './describe-value.js';

/** An API key and the project it belongs to. A revoked key is refused like an unknown one. */
export interface ApiKey {
  /** The secret sent in `x-api-key`. */
  key: string;
  /** The project whose applications the key can see. */
  projectId: string;
  /** Refuse the key (401) as if it had been revoked in the service's settings. */
  revoked?: boolean;
}

/** The header that carries the key (spec: Authentication). */
export const API_KEY_HEADER = 'x-api-key';

/**
 * Checks an `apiKeys` option. Messages name the entry and the rule but never echo a key.
 * @throws TypeError for a malformed entry or a key listed twice.
 */
export function checkApiKeys(value: unknown, label = 'apiKeys'): ApiKey[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new TypeError(
      `${label} must be a non-empty array of { key, projectId }, got ${describeValue(value)}`,
    );
  }
  const seen = new Map<string, number>();
  return value.map((entry: unknown, i) => {
    const at = `${label}[${i}]`;
    if (typeof entry !== 'object' || entry === null) {
      throw new TypeError(`${at} must be an object { key, projectId }, got ${describeValue(entry)}`);
    }
    const { key, projectId, revoked } = entry as Record<string, unknown>;
    // A header carries only visible ASCII reliably: any other key could never authenticate.
    if (typeof key !== 'string' || !/^[\x21-\x7e]+$/.test(key)) {
      const got = typeof key === 'string' ? `a string of ${key.length} characters` : describeValue(key);
      throw new TypeError(
        `${at}.key must be a non-empty string of visible ASCII characters (no whitespace, no non-ASCII), got ${got}`,
      );
    }
    if (typeof projectId !== 'string' || projectId.trim() === '') {
      throw new TypeError(`${at}.projectId must be a non-empty string, got ${describeValue(projectId)}`);
    }
    if (revoked !== undefined && typeof revoked !== 'boolean') {
      throw new TypeError(`${at}.revoked must be a boolean when given, got ${describeValue(revoked)}`);
    }
    const first = seen.get(key);
    if (first !== undefined) throw new TypeError(`${at}.key is the same key as ${label}[${first}].key`);
    seen.set(key, i);
    return { key, projectId, revoked: revoked === true };
  });
}

/** The keys the service accepts, changeable at run time (revoke, add). */
export class ApiKeyRing {
  readonly #keys = new Map<string, ApiKey>();
  readonly #projects = new WeakMap<FastifyRequest, string>();

  constructor(keys: readonly ApiKey[]) {
    for (const key of keys) this.#keys.set(key.key, { ...key });
  }

  /** Adds a key, or replaces the entry of the same key. */
  add(key: ApiKey): void {
    const [checked] = checkApiKeys([key], 'apiKey');
    if (checked !== undefined) this.#keys.set(checked.key, checked);
  }

  /** Revokes a key; returns whether the key was known. */
  revoke(key: string): boolean {
    const entry = this.#keys.get(key);
    if (entry === undefined) return false;
    entry.revoked = true;
    return true;
  }

  /**
   * The `onRequest` step: answers 401 `{ message }` (no `success`, as the spec shows it) for a
   * missing, unknown or revoked key, else remembers the key's project for the handler.
   * Returns whether the request may go on.
   */
  authenticate(request: FastifyRequest, reply: FastifyReply): boolean {
    const header = request.headers[API_KEY_HEADER];
    const key = Array.isArray(header) ? header[0] : header;
    const entry = key === undefined || key === '' ? undefined : this.#keys.get(key);
    if (entry === undefined || entry.revoked === true) {
      const message =
        key === undefined || key === ''
          ? `Missing API key: send it in the ${API_KEY_HEADER} header`
          : entry === undefined
            ? 'Invalid API key'
            : 'API key has been revoked';
      void reply.code(401).send({ message });
      return false;
    }
    this.#projects.set(request, entry.projectId);
    return true;
  }

  /** The project of an authenticated request. */
  projectOf(request: FastifyRequest): string {
    const projectId = this.#projects.get(request);
    if (projectId === undefined) throw new Error('request was not authenticated');
    return projectId;
  }

  /** The project of a request, or `undefined` when it was not authenticated. */
  findProject(request: FastifyRequest): string | undefined {
    return this.#projects.get(request);
  }
}
