/**
 * The priorities of a work queue's keys, as controller-runtime's priority queue has them: the adds of
 * an informer's initial list and resyncs wait at LOW_PRIORITY (its handler.LowPriority), every change
 * at NORMAL_PRIORITY, so that a change is reconciled before the start's backlog.
 */
export const NORMAL_PRIORITY = 0;
export const LOW_PRIORITY = -100;

/** The keys of one priority, first in first out; an entry whose ticket is no longer its key's is stale. */
interface Lane {
  readonly priority: number;
  keys: string[];
  tickets: number[];
  /** The index of the next entry to take. */
  head: number;
}

/** Taken entries a lane keeps before it drops them from its arrays. */
const COMPACT_AFTER = 1024;

/**
 * Keys ready to start: the highest priority first, and within a priority the key that has waited at
 * it longest. A key waits once; adding it again at a higher priority moves it to the back of that
 * priority's keys, adding it at the same or a lower one changes nothing. Both take constant time
 * (the entry a key leaves behind is skipped when its turn comes).
 */
export class ReadyKeys {
  /** Highest priority first. */
  readonly #lanes: Lane[] = [];
  /** Each waiting key's priority and the ticket of its live entry. */
  readonly #waiting = new Map<string, { priority: number; ticket: number }>();
  #nextTicket = 0;

  get size(): number {
    return this.#waiting.size;
  }

  /** Adds `key` at `priority`, or moves it up to `priority` if it waits at a lower one. */
  push(key: string, priority: number): void {
    const waiting = this.#waiting.get(key);
    if (waiting !== undefined && waiting.priority >= priority) return;
    const ticket = this.#nextTicket++;
    this.#waiting.set(key, { priority, ticket });
    const lane = this.#lane(priority);
    lane.keys.push(key);
    lane.tickets.push(ticket);
  }

  /** Takes the key whose turn it is; undefined when none waits. */
  shift(): string | undefined {
    for (const lane of this.#lanes) {
      while (lane.head < lane.keys.length) {
        const key = lane.keys[lane.head]!;
        const ticket = lane.tickets[lane.head]!;
        lane.head += 1;
        if (this.#waiting.get(key)?.ticket !== ticket) continue;
        this.#waiting.delete(key);
        compact(lane);
        return key;
      }
      compact(lane);
    }
    return undefined;
  }

  clear(): void {
    this.#waiting.clear();
    this.#lanes.length = 0;
  }

  #lane(priority: number): Lane {
    let index = 0;
    while (index < this.#lanes.length && this.#lanes[index]!.priority > priority) index += 1;
    const found = this.#lanes[index];
    if (found?.priority === priority) return found;
    const lane: Lane = { priority, keys: [], tickets: [], head: 0 };
    this.#lanes.splice(index, 0, lane);
    return lane;
  }
}

function compact(lane: Lane): void {
  if (lane.head === lane.keys.length) {
    lane.keys = [];
    lane.tickets = [];
    lane.head = 0;
  } else if (lane.head >= COMPACT_AFTER && lane.head * 2 >= lane.keys.length) {
    lane.keys = lane.keys.slice(lane.head);
    lane.tickets = lane.tickets.slice(lane.head);
    lane.head = 0;
  }
}
