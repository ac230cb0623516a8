/**
 * Reads the `data:` payloads of a `text/event-stream` body, as the EventSource standard does:
 * lines end with CRLF, LF or CR; a line `data:x` or `data: x` (one leading space removed) adds `x`
 * to the current event's data, several data lines of one event are joined with `\n`, and a blank
 * line ends the event. Events without data (comments, `event:`/`id:`/`retry:` only) are skipped.
 * An event cut off at the end of the text (no closing blank line) still counts.
 */
export function sseEvents(text: string): string[] {
  const events: string[] = [];
  let data: string[] | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data !== undefined) events.push(data.join('\n'));
      data = undefined;
      continue;
    }
    if (line === 'data' || line.startsWith('data:')) {
      let value = line.slice(5);
      if (value.startsWith(' ')) value = value.slice(1);
      if (data === undefined) data = [value];
      else data.push(value);
    }
  }
  if (data !== undefined) events.push(data.join('\n'));
  return events;
}
