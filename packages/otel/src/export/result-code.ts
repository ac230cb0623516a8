/**
 * The result codes of a `SpanExporter` callback, with the values of `@opentelemetry/core`'s
 * `ExportResultCode`. Defined here so the package depends on no runtime part of an SDK line and
 * works with 2.x (`sdk-trace-base`) and 3.x (`sdk-trace`) alike.
 */
export const ExportResultCode = { SUCCESS: 0, FAILED: 1 } as const;
/** `0` success, `1` failed. */
export type ExportResultCode = (typeof ExportResultCode)[keyof typeof ExportResultCode];

/** What `AqmSpanExporter.export()` passes to its callback (the shape of core's `ExportResult`). */
export interface AqmExportResult {
  code: ExportResultCode;
  error?: Error;
}
