import { z } from 'zod';
import { expects, isoDateTimeSchema, refineRange } from './common.js';
import { MAX_SHORT_TEXT, MAX_WIDGET_TYPES } from './limits.js';

/** An item of `GET /widgets` (contract decision). */
export const widgetSchema = z.object({ id: z.string(), name: z.string(), description: z.string() });
/** An item of the widget catalog, `GET /widgets`. */
export type Widget = z.infer<typeof widgetSchema>;

/** `POST /applications/{id}/widget-data` body (spec). */
export const widgetDataBodySchema = z
  .object({
    types: z
      .array(
        z
          .string({ error: expects('must be a string') })
          .min(1, { message: 'must be at least 1 character' })
          .max(MAX_SHORT_TEXT, { message: `must be at most ${MAX_SHORT_TEXT} characters` }),
        {
          error: expects('must be an array of widget ids'),
        },
      )
      .min(1, { message: 'must hold at least 1 widget id' })
      .max(MAX_WIDGET_TYPES, { message: `must hold at most ${MAX_WIDGET_TYPES} widget ids` }),
    start: isoDateTimeSchema,
    end: isoDateTimeSchema,
  })
  .strict()
  .superRefine(refineRange);
/** `POST /applications/{id}/widget-data` body as sent: widget `types` and a `start`/`end` range. */
export type WidgetDataBody = z.input<typeof widgetDataBodySchema>;

/** One point of a widget series. */
export const widgetPointSchema = z.object({ timestamp: z.string(), value: z.number() });
/** An item of widget data `data`, answering the requested type at the same position (contract decision). */
export const widgetDataItemSchema = z.object({
  type: z.string(),
  points: z.array(widgetPointSchema),
  total: z.number(),
});
/** An item of `POST /applications/{id}/widget-data` data: a widget's series `points` and `total`. */
export type WidgetDataItem = z.infer<typeof widgetDataItemSchema>;
