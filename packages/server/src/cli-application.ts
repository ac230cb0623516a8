import { MAX_PAGE_SIZE } from '@aqm/wire';

/** The application `aqm-server --application NAME` made or found, and which of the two. */
export interface CliApplication {
  id: string;
  name: string;
  created: boolean;
}

interface ApplicationItem {
  id: string;
  name: string;
}

/**
 * The application named `name` in the project of `apiKey`: found by name, or created. It goes
 * through the service's own HTTP routes, as any client would, so the printed id is one the
 * next step's client can read back. Running twice (with `--data-dir`) finds the first one.
 * @throws Error naming the request that failed, without the key.
 */
export async function ensureApplication(
  baseUrl: string,
  apiKey: string,
  name: string,
): Promise<CliApplication> {
  const found = await findByName(baseUrl, apiKey, name);
  if (found !== undefined) return { ...found, created: false };
  const response = await call(baseUrl, apiKey, 'POST', '/applications', {
    name,
    description: 'Created by aqm-server --application',
  });
  // 409: someone made it between the lookup and the create; it is the one to use.
  if (response.status === 409) {
    const raced = await findByName(baseUrl, apiKey, name);
    if (raced !== undefined) return { ...raced, created: false };
  }
  const created = (await readData(response, 'POST /applications')) as ApplicationItem;
  return { id: created.id, name: created.name, created: true };
}

async function findByName(
  baseUrl: string,
  apiKey: string,
  name: string,
): Promise<ApplicationItem | undefined> {
  const wanted = name.trim();
  // Pages of the name search, until one is short: names are unique per project.
  for (let page = 1; ; page++) {
    const query = new URLSearchParams({ search: wanted, page: String(page), limit: String(MAX_PAGE_SIZE) });
    const response = await call(baseUrl, apiKey, 'GET', `/applications?${query}`);
    const items = (await readData(response, 'GET /applications')) as ApplicationItem[];
    const match = items.find((item) => item.name.trim() === wanted);
    if (match !== undefined) return { id: match.id, name: match.name };
    if (items.length < MAX_PAGE_SIZE) return undefined;
  }
}

function call(
  baseUrl: string,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'x-api-key': apiKey,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function readData(response: Response, label: string): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${label} answered ${response.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: unknown }).data;
}
