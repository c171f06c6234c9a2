/**
 * Port: one HTTP POST to a receiver (X18). Resolves with the status, rejects when none came within
 * `timeoutMs` or when `cancel` was aborted first (the server is stopping: D41).
 */
export abstract class WebhookSender {
  abstract post(
    url: string,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
    cancel?: AbortSignal,
  ): Promise<number>;
}
