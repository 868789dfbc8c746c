/** "2 h 5 min", "12 min", "less than a minute": how long someone has waited. */
export function waitedFor(sinceUnixSeconds: number, nowMs: number): string {
  const minutes = Math.max(0, Math.floor((nowMs / 1000 - sinceUnixSeconds) / 60));
  if (minutes < 1) return "less than a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}
