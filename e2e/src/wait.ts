/** Polling until a cluster reaches a state, failing with what went wrong last so a timeout explains itself. */

export type Probe<T> = () => Promise<T | undefined | false>;

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Which probe errors mean "not yet"; others fail the wait at once. Default: every error. */
  retryOn?: (error: unknown) => boolean;
}

export async function waitFor<T>(description: string, probe: Probe<T>, options: WaitOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  const retryOn = options.retryOn ?? (() => true);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      if (!retryOn(error)) throw error;
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause =
        lastError === undefined
          ? ''
          : `; last error: ${lastError instanceof Error ? lastError.message : String(lastError)}`;
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${description}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
