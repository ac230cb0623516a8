function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * Renders an ISO timestamp in the local time zone as `YYYY-MM-DD HH:mm:ss`, the way terminal
 * tools show times to people. Unparseable input is returned as given, so nothing is hidden.
 */
export function formatLocalTime(iso: string | Date): string {
  const date = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}
