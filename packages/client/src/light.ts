/**
 * The client's base-URL and proxy-variable rules without the client: no undici, no zod. For packages that check a
 * base URL on an app's start and load the client itself only when they first send (`@aqm/otel`).
 * @packageDocumentation
 */
export { normalizeBaseUrl } from './base-url.js';
export { type ProxyEnvironment, type ProxySetting, readProxyEnvironment } from './proxy-environment.js';
