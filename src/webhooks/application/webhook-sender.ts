/** Port: one HTTP POST to a receiver (X18). Resolves with the status, rejects when none came. */
export abstract class WebhookSender {
  abstract post(
    url: string,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
  ): Promise<number>;
}
