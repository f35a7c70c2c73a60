/**
 * Which live replica owns which key (a registration name), free of I/O: every replica computes it
 * from the same inputs and so agrees with the others once their views of the members agree.
 *
 * Rendezvous hashing with bounded loads: each key ranks the members by a hash of (member, key) and
 * goes to the first one in that ranking that still has room. Room is exact, not approximate: with
 * R keys and M members, R mod M members may hold ⌈R/M⌉ keys and the others ⌊R/M⌋, so the counts
 * never differ by more than one. Keys are placed in an order fixed by their own hash, independent of
 * the members, so a member joining or leaving moves mostly the keys that rank it (or ranked it)
 * first: about R/M of them.
 */

/** 32-bit FNV-1a of a string's UTF-16 code units, mixed by murmur3's finaliser for avalanche. */
function hash32(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** The weight of `member` for `key`: the higher, the earlier the member in the key's ranking. */
function weight(member: string, key: string): number {
  return hash32(key, hash32(member));
}

/** Ties broken by byte order, so every replica breaks them the same way. */
function byHashThenName(a: { hash: number; name: string }, b: { hash: number; name: string }): number {
  if (a.hash !== b.hash) return a.hash - b.hash;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Owner of each key. `holders` are the owners the keys have now (their Leases' holders): a holder
 * that is still a member keeps as many of its keys as its share allows, so a member joining takes
 * about R/M keys from the others and a member leaving hands on only its own. Without holders the
 * assignment is plain rendezvous with bounded loads. Duplicate members or keys count once; with no
 * member, no key has an owner.
 */
export function assignOwners(
  members: readonly string[],
  keys: readonly string[],
  holders: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const owners = new Map<string, string>();
  const uniqueMembers = [...new Set(members)];
  if (uniqueMembers.length === 0) return owners;
  const ordered = [...new Set(keys)]
    .map((name) => ({ name, hash: hash32(name) }))
    .sort(byHashThenName)
    .map(({ name }) => name);
  const memberSet = new Set(uniqueMembers);
  const held = new Map<string, string[]>(uniqueMembers.map((member) => [member, []]));
  for (const key of ordered) {
    const holder = holders.get(key);
    if (holder !== undefined && memberSet.has(holder)) held.get(holder)?.push(key);
  }
  // The members that hold most now get the R mod M places for one more: fewest keys move.
  const floor = Math.floor(ordered.length / uniqueMembers.length);
  const ceilings = new Set(
    uniqueMembers
      .map((name) => ({ name, count: held.get(name)?.length ?? 0, hash: hash32(name) }))
      .sort((a, b) => b.count - a.count || byHashThenName(a, b))
      .slice(0, ordered.length % uniqueMembers.length)
      .map(({ name }) => name),
  );
  const room = new Map<string, number>();
  for (const member of uniqueMembers) {
    const share = floor + (ceilings.has(member) ? 1 : 0);
    // A holder over its share keeps the keys that rank it highest, as rendezvous would give them.
    const kept = (held.get(member) ?? [])
      .map((name) => ({ name, hash: weight(member, name) }))
      .sort((a, b) => byHashThenName(b, a))
      .slice(0, share);
    for (const { name } of kept) owners.set(name, member);
    room.set(member, share - kept.length);
  }
  for (const key of ordered) {
    if (owners.has(key)) continue;
    const ranking = uniqueMembers
      .map((name) => ({ name, hash: weight(name, key) }))
      .sort((a, b) => byHashThenName(b, a));
    const owner = ranking.find(({ name }) => (room.get(name) ?? 0) > 0)?.name;
    if (owner === undefined) continue;
    room.set(owner, (room.get(owner) ?? 0) - 1);
    owners.set(key, owner);
  }
  return owners;
}
