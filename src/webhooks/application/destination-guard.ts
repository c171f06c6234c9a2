/** Port: where a url's host resolves to, for the SSRF guard (X16). */
export abstract class DestinationGuard {
  /** null when the url may be called, else the reason it may not */
  abstract problem(url: string): Promise<string | null>;
}
