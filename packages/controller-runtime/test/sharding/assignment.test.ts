import { describe, expect, it } from 'vitest';
import { assignOwners } from '../../src/sharding/assignment.ts';

/** A seeded generator, so a failure names the case that failed and reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789-.';

function names(next: () => number, count: number, prefix = ''): string[] {
  const unique = new Set<string>();
  while (unique.size < count) {
    const length = 1 + Math.floor(next() * 40);
    let name = 'a';
    for (let index = 1; index < length; index++) name += ALPHABET[Math.floor(next() * ALPHABET.length)];
    unique.add(prefix + name);
  }
  return [...unique];
}

function loads(owners: Map<string, string>, members: readonly string[]): number[] {
  return members.map((member) => [...owners.values()].filter((owner) => owner === member).length);
}

function moved(before: Map<string, string>, after: Map<string, string>): number {
  return [...after].filter(([key, owner]) => before.get(key) !== owner).length;
}

const CASES = 400;

describe('assignOwners', () => {
  it('gives every key one member and every member ⌊R/M⌋ or ⌈R/M⌉ keys, for random names', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const next = random(seed);
      const keys = names(next, Math.floor(next() * 300));
      const members = names(next, 1 + Math.floor(next() * 9), 'scoby-7f9c_');
      const owners = assignOwners(members, keys);
      expect([...owners.keys()].sort(), `seed ${seed}`).toEqual([...keys].sort());
      for (const owner of owners.values()) expect(members).toContain(owner);
      const counts = loads(owners, members);
      const floor = Math.floor(keys.length / members.length);
      for (const count of counts) expect([floor, Math.ceil(keys.length / members.length)]).toContain(count);
    }
  });

  it('is the same whatever order members and keys come in, and holding what it gives changes nothing', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const next = random(seed);
      const keys = names(next, 1 + Math.floor(next() * 100));
      const members = names(next, 1 + Math.floor(next() * 6));
      const owners = assignOwners(members, keys);
      expect(assignOwners([...members].reverse(), [...keys].reverse())).toEqual(owners);
      expect(assignOwners(members, keys, owners)).toEqual(owners);
    }
  });

  it('moves at most ⌈R/(M+1)⌉ keys when a member joins and only the leaver’s keys when one leaves', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const next = random(seed);
      const keys = names(next, 1 + Math.floor(next() * 300));
      const members = names(next, 2 + Math.floor(next() * 7));
      const owners = assignOwners(members, keys);
      const joined = assignOwners([...members, 'newcomer'], keys, owners);
      expect(moved(owners, joined), `seed ${seed}`).toBeLessThanOrEqual(
        Math.ceil(keys.length / (members.length + 1)),
      );
      const leaver = members[0]!;
      const left = assignOwners(members.slice(1), keys, owners);
      const leaversKeys = [...owners].filter(([, owner]) => owner === leaver).map(([key]) => key);
      expect(
        [...left]
          .filter(([key, owner]) => owners.get(key) !== owner)
          .map(([key]) => key)
          .sort(),
        `seed ${seed}`,
      ).toEqual(leaversKeys.sort());
    }
  });

  it('balances twelve registrations over three replicas four each', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const members = names(next, 3);
      expect(loads(assignOwners(members, names(next, 12)), members)).toEqual([4, 4, 4]);
    }
  });

  it('ignores holders that are not members, and owns nothing without members', () => {
    const owners = assignOwners(['a', 'b'], ['k1', 'k2', 'k3', 'k4'], new Map([['k1', 'gone']]));
    expect(loads(owners, ['a', 'b'])).toEqual([2, 2]);
    expect(assignOwners([], ['k1'])).toEqual(new Map());
  });

  it('gives a fixed input exactly this assignment: replicas of two releases must agree during a rolling upgrade', () => {
    const members = ['scoby-0_a1', 'scoby-1_b2', 'scoby-2_c3'];
    const keys = Array.from({ length: 8 }, (_, index) => `registration-${index}`);
    const [a, b, c] = members;
    expect(Object.fromEntries(assignOwners(members, keys))).toEqual({
      'registration-0': c,
      'registration-1': c,
      'registration-2': a,
      'registration-3': a,
      'registration-4': b,
      'registration-5': c,
      'registration-6': b,
      'registration-7': a,
    });
    // A holder of everything keeps its share: the three keys that rank it highest.
    const holders = new Map(keys.map((key) => [key, a!]));
    expect(Object.fromEntries(assignOwners(members, keys, holders))).toEqual({
      'registration-0': c,
      'registration-1': a,
      'registration-2': c,
      'registration-3': a,
      'registration-4': b,
      'registration-5': c,
      'registration-6': b,
      'registration-7': a,
    });
  });

  it('gives the place for one more key to the member that holds more now, whichever it is: no key moves', () => {
    const keys = ['k1', 'k2', 'k3'];
    for (const [more, fewer] of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      const holders = new Map<string, string>([
        ['k1', more],
        ['k2', more],
        ['k3', fewer],
      ]);
      expect(Object.fromEntries(assignOwners(['a', 'b'], keys, holders))).toEqual({
        k1: more,
        k2: more,
        k3: fewer,
      });
    }
  });
});
