/** The names of work sharing's Leases: part of what replicas of two releases must agree on. */
import { describe, expect, it } from 'vitest';
import { keyLeaseName, memberLeaseName } from '../../src/sharding/shard-leases.ts';

describe('Lease names', () => {
  it('name a member by a 10-digit hash of its identity, which may hold characters a name may not', () => {
    expect(memberLeaseName('scoby-', 'a_0e3c')).toBe('scoby-member-7e18cac14f');
  });

  it('name a key plainly up to the 253 characters of a name, and by a 16-digit hash of it beyond', () => {
    const fits = 'k'.repeat(253 - 'scoby-registration-'.length);
    expect(keyLeaseName('scoby-', 'registration', fits)).toBe(`scoby-registration-${fits}`);
    expect(keyLeaseName('scoby-', 'registration', 'k'.repeat(300))).toBe(
      'scoby-registration-17b16d8ef494060f',
    );
    expect(keyLeaseName('scoby-', 'registration', `${fits}k`)).toMatch(/^scoby-registration-[0-9a-f]{16}$/);
  });
});
