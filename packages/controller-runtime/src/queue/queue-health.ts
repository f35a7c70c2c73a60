/** What a work queue tells about its progress; WorkQueue is one. */
export interface QueueProgress {
  /** Keys waiting to start. */
  readonly length: number;
  readonly running: number;
  /** How long the queue has had work without a reconcile finishing; 0 while idle. */
  stalledForMs(): number;
}

export interface WatchOptions {
  /**
   * The queue's runs hold only its own places while they wait outside the process (CappedShare
   * with ReconcileContext.withoutSharedSlot): a stall while they run is the queue's own, reported
   * by `stalled()`, not a problem of the process. Stalled with keys waiting and none running, it
   * waits for slots nobody gives back: that is the process's.
   */
  isolated?: boolean;
}

/** A queue stalled on its own: its name and why. */
export interface StalledQueue {
  name: string;
  /** `no reconcile finished for … (bound …); waiting …, running …` */
  detail: string;
}

/**
 * The liveness of the process's work queues. A queue that has had work and finished no reconcile
 * for longer than the bound is stalled: a problem of the process (/healthz fails, so a kubelet
 * restarts it), or, for an isolated queue whose runs are what waits, that queue's own.
 */
export class QueueHealth {
  readonly #stallAfterMs: number;
  readonly #queues = new Map<QueueProgress, { name: string; isolated: boolean }>();

  constructor(stallAfterMs: number) {
    this.#stallAfterMs = stallAfterMs;
  }

  /** Watches `queue` under `name` until the returned function is called. */
  watch(name: string, queue: QueueProgress, options: WatchOptions = {}): () => void {
    this.#queues.set(queue, { name, isolated: options.isolated ?? false });
    return () => this.#queues.delete(queue);
  }

  /** One sentence per queue whose stall is the process's; empty while the process makes progress. */
  problems(): string[] {
    return this.#stalls()
      .filter(({ isolated, queue }) => !isolated || queue.running === 0)
      .map(({ name, detail }) => `work queue ${name} is stalled: ${detail}`);
  }

  /** The isolated queues stalled while their runs wait: their own problem, not the process's. */
  stalled(): StalledQueue[] {
    return this.#stalls()
      .filter(({ isolated, queue }) => isolated && queue.running > 0)
      .map(({ name, detail }) => ({ name, detail }));
  }

  /** The names of the isolated queues watched. */
  isolatedNames(): string[] {
    return [...this.#queues.values()].filter((entry) => entry.isolated).map((entry) => entry.name);
  }

  #stalls(): Array<{ name: string; isolated: boolean; queue: QueueProgress; detail: string }> {
    const stalls = [];
    for (const [queue, { name, isolated }] of this.#queues) {
      const stalledMs = queue.stalledForMs();
      if (stalledMs <= this.#stallAfterMs) continue;
      const detail =
        `no reconcile finished for ${seconds(stalledMs)} (bound ${seconds(this.#stallAfterMs)}); ` +
        `waiting ${queue.length}, running ${queue.running}`;
      stalls.push({ name, isolated, queue, detail });
    }
    return stalls;
  }
}

function seconds(ms: number): string {
  return `${Math.floor(ms / 1000)} s`;
}
