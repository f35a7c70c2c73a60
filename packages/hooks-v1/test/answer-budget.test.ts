import { describe, expect, it } from 'vitest';
import { AnswerBudget, type Admission } from '../src/answer-budget.ts';

const MIB = 1024 * 1024;
const KIB = 1024;
/** A budget of 10 MiB in which answers estimated at 64 KiB or less are not counted. */
const budget = () => new AnswerBudget({ totalBytes: 10 * MIB, smallAnswerBytes: 64 * KIB });
/** Plain string content: no JSON tokens, so an answer costs three times its bytes. */
const text = (bytes: number) => Buffer.alloc(bytes, 'x');

function waited(admission: Admission): Promise<void> {
  if (admission.kind !== 'wait') throw new Error(`expected to wait, got ${admission.kind}`);
  return admission.admitted;
}

describe('AnswerBudget', () => {
  it('does not count small answers', () => {
    const shared = budget();
    const reservation = shared.reserve(16 * MIB);
    expect(reservation.announce(20 * KIB)).toEqual({ kind: 'read' });
    expect(reservation.receive(text(20 * KIB), 20 * KIB)).toEqual({ kind: 'read' });
    expect(shared.inUse).toBe(0);
  });

  it('takes a block for an announced body: three copies of it and room for its tokens', () => {
    const shared = budget();
    const reservation = shared.reserve(16 * MIB);
    expect(reservation.announce(1 * MIB)).toEqual({ kind: 'read' });
    expect(shared.inUse).toBe(3 * MIB + 64 * KIB);
    expect(reservation.receive(text(1 * MIB), 1 * MIB)).toEqual({ kind: 'read' });
    expect(shared.inUse).toBe(3 * MIB + 64 * KIB);
    reservation.release();
    reservation.release();
    expect(shared.inUse).toBe(0);
  });

  it('takes a block as large as a body may be once an unannounced body is no longer small', () => {
    const shared = budget();
    const reservation = shared.reserve(2 * MIB);
    expect(reservation.receive(text(16 * KIB), 16 * KIB)).toEqual({ kind: 'read' });
    expect(shared.inUse).toBe(0);
    expect(reservation.receive(text(16 * KIB), 32 * KIB)).toEqual({ kind: 'read' });
    expect(shared.inUse).toBe(6 * MIB + 64 * KIB);
  });

  it('refuses at once an answer that could never fit', () => {
    const shared = budget();
    expect(shared.reserve(16 * MIB).announce(4 * MIB)).toEqual({
      kind: 'refuse',
      cause:
        'response needs about 12.0 MiB to read and parse, more than the 10.0 MiB all hook answers may hold at once',
    });
    // `[{},{},…]`: 2 tokens per 3 bytes, each costing far more than its bytes.
    const tokens = shared.reserve(16 * MIB);
    expect(tokens.announce(200 * KIB)).toEqual({ kind: 'read' });
    expect(tokens.receive(Buffer.from('[' + '{},'.repeat(66_000)), 198_001)).toEqual({
      kind: 'refuse',
      cause:
        'response needs about 10.7 MiB to read and parse, more than the 10.0 MiB all hook answers may hold at once',
    });
    expect(shared.inUse).toBe(600 * KIB + 64 * KIB);
    tokens.release();
    expect(shared.inUse).toBe(0);
  });

  it('lets an answer wait in line while it holds nothing, and admits the line in order', async () => {
    const shared = budget();
    const first = shared.reserve(16 * MIB);
    expect(first.announce(2 * MIB)).toEqual({ kind: 'read' });
    const second = shared.reserve(16 * MIB);
    const third = shared.reserve(16 * MIB);
    const admitted: string[] = [];
    void waited(second.announce(2 * MIB)).then(() => admitted.push('second'));
    void waited(third.announce(2 * MIB)).then(() => admitted.push('third'));
    // A newcomer that would fit does not pass those in line.
    expect(shared.reserve(16 * MIB).announce(100 * KIB)).toMatchObject({ kind: 'wait' });
    expect(shared.waiting).toBe(3);

    first.release();
    await Promise.resolve();
    expect(admitted).toEqual(['second']);
    expect(shared.inUse).toBe(6 * MIB + 64 * KIB);
    expect(shared.waiting).toBe(2);
    second.release();
    await Promise.resolve();
    expect(admitted).toEqual(['second', 'third']);
  });

  it('takes a leaver out of the line, and lets the next one in', async () => {
    const shared = budget();
    const holder = shared.reserve(16 * MIB);
    holder.announce(3 * MIB);
    const leaver = shared.reserve(16 * MIB);
    const next = shared.reserve(16 * MIB);
    void waited(leaver.announce(3 * MIB));
    let nextAdmitted = false;
    void waited(next.announce(100 * KIB)).then(() => (nextAdmitted = true));
    leaver.release();
    await Promise.resolve();
    expect(nextAdmitted).toBe(true);
    expect(shared.waiting).toBe(0);
    expect(shared.inUse).toBe(9 * MIB + 64 * KIB + 300 * KIB + 64 * KIB);
  });

  it('lets an admitted answer grow only into free memory, before those in line, or refuses it', () => {
    const shared = budget();
    const growing = shared.reserve(16 * MIB);
    expect(growing.announce(100 * KIB)).toEqual({ kind: 'read' });
    const other = shared.reserve(16 * MIB);
    expect(other.announce(2 * MIB)).toEqual({ kind: 'read' });
    expect(shared.reserve(16 * MIB).announce(1.5 * MIB)).toMatchObject({ kind: 'wait' });
    // `{},…`: 30,000 tokens a chunk, each costing far more than its bytes.
    const objects = Buffer.from('{},'.repeat(15_000));
    expect(growing.receive(objects, objects.length)).toEqual({ kind: 'read' });
    expect(growing.receive(objects, 2 * objects.length)).toEqual({
      kind: 'refuse',
      cause:
        'response needs about 4.9 MiB to read and parse, and other hook answers hold 6.1 of the 10.0 MiB they may hold at once',
    });
  });

  it('takes nothing for chunks that arrive after the reservation was released', () => {
    const shared = budget();
    const reservation = shared.reserve(16 * MIB);
    reservation.release();
    expect(reservation.receive(text(1 * MIB), 1 * MIB)).toEqual({ kind: 'read' });
    expect(shared.inUse).toBe(0);
  });
});
