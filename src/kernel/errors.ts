/** The message of anything thrown, for a log line: an Error's message, else the value as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
