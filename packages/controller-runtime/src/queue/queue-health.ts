/** What a work queue tells about its progress; WorkQueue is one. */
export interface QueueProgress {
  /** Keys waiting to start. */
  readonly length: number;
  readonly running: number;
  /** How long the queue has had work without a reconcile finishing; 0 while idle. */
  stalledForMs(): number;
}

/**
 * The liveness of the process's work queues. A queue that has had work and finished no reconcile
 * for longer than the bound is wedged; /healthz then fails, so a kubelet restarts the process.
 */
export class QueueHealth {
  readonly #stallAfterMs: number;
  readonly #queues = new Map<QueueProgress, string>();

  constructor(stallAfterMs: number) {
    this.#stallAfterMs = stallAfterMs;
  }

  /** Watches `queue` under `name` until the returned function is called. */
  watch(name: string, queue: QueueProgress): () => void {
    this.#queues.set(queue, name);
    return () => this.#queues.delete(queue);
  }

  /** One sentence per stalled queue; empty while every queue makes progress. */
  problems(): string[] {
    const problems: string[] = [];
    for (const [queue, name] of this.#queues) {
      const stalledMs = queue.stalledForMs();
      if (stalledMs <= this.#stallAfterMs) continue;
      problems.push(
        `work queue ${name} is stalled: no reconcile finished for ${seconds(stalledMs)} ` +
          `(bound ${seconds(this.#stallAfterMs)}); waiting ${queue.length}, running ${queue.running}`,
      );
    }
    return problems;
  }
}

function seconds(ms: number): string {
  return `${Math.floor(ms / 1000)} s`;
}
