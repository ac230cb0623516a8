/**
 * The AQM service, running locally: every endpoint of the interface, backed by SQLite, with
 * fault injection for testing clients and exporters.
 * @packageDocumentation
 */
export { buildApp } from './app.js';
export { API_KEY_HEADER, type ApiKey } from './auth.js';
export type { FaultRule, FaultsConfig } from './faults.js';
export type { AppOptions, StartServerOptions } from './options.js';
export { type RunningServer, startServer } from './start-server.js';
export { DataDirInUseError, OWNER_FILE } from './store/data-dir-lock.js';
export { DATABASE_FILE } from './store/store.js';
export { type WidgetId, widgetCatalog } from './widgets/catalog.js';
