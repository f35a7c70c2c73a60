/**
 * The memory hook answers may hold at once, process-wide. A body of up to 16 MiB (docs/spec/hooks-v1.md §2) is
 * held as received chunks, then as one buffer and its decoded text, then parsed, and parsed JSON can
 * take many times its text (`[{},{},…]`: about 30 times). Forty hooks answering near the cap at once
 * would take gigabytes; the budget keeps what answers being read and parsed hold under a fixed bound.
 *
 * An answer's cost is estimated while it streams in: its bytes three times over, plus a fixed cost
 * per structural JSON token. Small answers, the usual ones, are not counted: how many can be in flight
 * is bounded by the callers' own concurrency. A larger answer first takes a block for its whole body,
 * as announced by Content-Length or else as large as a body may be, waiting in line for it while it
 * holds nothing (so answers never wait on one another); it holds the block until released. Tokens
 * beyond the block are taken at once or the answer fails: one that could never fit fails at once.
 */
import { JsonTokenCounter } from './json-tokens.ts';

const MIB = 1024 * 1024;

/**
 * Default budget: one answer at the 16 MiB cap at a time, beside smaller ones; with forty hooks
 * answering at the cap the controller stays well inside the 512 Mi of its Deployment
 * (bench/hook-answer-memory.bench.ts in apps/controller).
 */
export const DEFAULT_ANSWER_BUDGET_BYTES = 64 * MIB;
/** Answers estimated below this are not counted against the budget. */
export const DEFAULT_SMALL_ANSWER_BYTES = 1 * MIB;
/** Received chunks, the joined buffer and the decoded text, or the text and the parsed strings. */
const COPIES_OF_THE_BODY = 3;
/** The heap one parsed object, array, element or member takes, rounded up from measurements. */
const BYTES_PER_TOKEN = 80;
/** Part of a block for the tokens of an ordinary answer (about 800), so that it never has to grow. */
const BLOCK_TOKEN_BYTES = 64 * 1024;

export interface AnswerBudgetOptions {
  totalBytes?: number;
  smallAnswerBytes?: number;
}

/** What the reader of an answer does next. */
export type Admission =
  { kind: 'read' } | { kind: 'wait'; admitted: Promise<void> } | { kind: 'refuse'; cause: string };

const READ: Admission = { kind: 'read' };

interface Waiter {
  bytes: number;
  admit(): void;
}

export class AnswerBudget {
  readonly totalBytes: number;
  readonly smallAnswerBytes: number;
  #inUse = 0;
  readonly #line: Waiter[] = [];

  constructor(options: AnswerBudgetOptions = {}) {
    this.totalBytes = options.totalBytes ?? DEFAULT_ANSWER_BUDGET_BYTES;
    this.smallAnswerBytes = options.smallAnswerBytes ?? DEFAULT_SMALL_ANSWER_BYTES;
  }

  /** Bytes held by the answers being read and parsed now. */
  get inUse(): number {
    return this.#inUse;
  }

  /** Answers waiting for their block. */
  get waiting(): number {
    return this.#line.length;
  }

  /** A reservation for one answer whose body is at most `maxBodyBytes`; release it once parsed. */
  reserve(maxBodyBytes: number): AnswerReservation {
    return new AnswerReservation(this, maxBodyBytes);
  }

  /**
   * Takes `bytes` now if they are free; false, taking nothing, otherwise. A new block (`first`) also
   * needs the line to be empty; an answer that already holds one goes before those waiting.
   */
  tryTake(bytes: number, first: boolean): boolean {
    if ((first && this.#line.length > 0) || this.#inUse + bytes > this.totalBytes) return false;
    this.#inUse += bytes;
    return true;
  }

  /** Joins the line for `bytes`; `admit` is called once they are taken. Returns the way out of the line. */
  wait(bytes: number, admit: () => void): () => void {
    const waiter = { bytes, admit };
    this.#line.push(waiter);
    return () => {
      const index = this.#line.indexOf(waiter);
      if (index >= 0) this.#line.splice(index, 1);
      this.#admitWaiting();
    };
  }

  give(bytes: number): void {
    this.#inUse -= bytes;
    this.#admitWaiting();
  }

  #admitWaiting(): void {
    for (
      let next = this.#line[0];
      next && this.#inUse + next.bytes <= this.totalBytes;
      next = this.#line[0]
    ) {
      this.#line.shift();
      this.#inUse += next.bytes;
      next.admit();
    }
  }
}

export class AnswerReservation {
  readonly #budget: AnswerBudget;
  readonly #maxBodyBytes: number;
  readonly #tokens = new JsonTokenCounter();
  #announcedBytes: number | undefined;
  #receivedBytes = 0;
  #held = 0;
  #leaveLine: (() => void) | undefined;
  #released = false;

  constructor(budget: AnswerBudget, maxBodyBytes: number) {
    this.#budget = budget;
    this.#maxBodyBytes = maxBodyBytes;
  }

  /** The body's announced length (Content-Length), before any of it is read. */
  announce(contentLength: number): Admission {
    this.#announcedBytes = contentLength;
    return this.#admit();
  }

  /** A chunk of the body; `received` counts every byte so far. */
  receive(chunk: Uint8Array, received: number): Admission {
    this.#tokens.count(chunk);
    this.#receivedBytes = received;
    return this.#admit();
  }

  /** Gives back what the answer held, or leaves the line. Idempotent. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#leaveLine?.();
    this.#budget.give(this.#held);
    this.#held = 0;
  }

  #admit(): Admission {
    // Chunks that arrive after the call ended are dropped unread; nothing may be taken for them.
    if (this.#released || this.#leaveLine !== undefined) return READ;
    const budget = this.#budget;
    const body = Math.max(this.#announcedBytes ?? 0, this.#receivedBytes);
    const cost = COPIES_OF_THE_BODY * body + BYTES_PER_TOKEN * this.#tokens.tokens;
    if (cost <= this.#held || (this.#held === 0 && cost <= budget.smallAnswerBytes)) return READ;
    if (cost > budget.totalBytes) {
      return refuse(
        `response needs about ${mib(cost)} MiB to read and parse, more than the ${mib(budget.totalBytes)} MiB all hook answers may hold at once`,
      );
    }
    if (this.#held > 0) {
      if (budget.tryTake(cost - this.#held, false)) {
        this.#held = cost;
        return READ;
      }
      return refuse(
        `response needs about ${mib(cost)} MiB to read and parse, and other hook answers hold ${mib(budget.inUse - this.#held)} of the ${mib(budget.totalBytes)} MiB they may hold at once`,
      );
    }
    const whole = COPIES_OF_THE_BODY * (this.#announcedBytes ?? this.#maxBodyBytes) + BLOCK_TOKEN_BYTES;
    const block = Math.min(Math.max(cost, whole), budget.totalBytes);
    if (budget.tryTake(block, true)) {
      this.#held = block;
      return READ;
    }
    return {
      kind: 'wait',
      admitted: new Promise((admitted) => {
        this.#leaveLine = budget.wait(block, () => {
          this.#leaveLine = undefined;
          this.#held = block;
          admitted();
        });
      }),
    };
  }
}

function refuse(cause: string): Admission {
  return { kind: 'refuse', cause };
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}
