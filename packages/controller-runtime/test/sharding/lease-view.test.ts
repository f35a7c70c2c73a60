import { describe, expect, it } from 'vitest';
import type { LeaseRecord } from '../../src/leader-election/lease-record.ts';
import { LeaseView } from '../../src/sharding/lease-view.ts';
import type { ListedLease } from '../../src/sharding/shard-leases.ts';

const DURATION = 15_000;
const WALL = Date.parse('2026-11-27T03:00:00Z');

function lease(name: string, record: LeaseRecord, labels?: Record<string, string>): ListedLease {
  return {
    name,
    resourceVersion: '1',
    record,
    object: {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, ...(labels ? { labels } : {}) },
    },
  };
}

const held = (holderIdentity: string, renewTime = WALL): LeaseRecord => ({
  holderIdentity,
  leaseDurationSeconds: 15,
  renewTime,
});

function view(): LeaseView {
  return new LeaseView({
    identity: 'me',
    memberPrefix: 'scoby-member-',
    keyPrefix: 'scoby-registration-',
    keyRole: 'registration',
    leaseDurationMs: DURATION,
  });
}

describe('LeaseView', () => {
  it('counts a member live while its Lease changes within a lease duration, and itself when told', () => {
    const seen = view();
    seen.absorb([lease('scoby-member-a', held('a')), lease('scoby-member-me', held('me'))], 0);
    expect(seen.liveMembers(true, 1_000, WALL)).toEqual(['a', 'me']);
    expect(seen.liveMembers(false, 1_000, WALL)).toEqual(['a']);
    // Unchanged for a lease duration: no longer live; a renewal makes it live again.
    expect(seen.liveMembers(true, DURATION, WALL)).toEqual(['me']);
    seen.absorb([lease('scoby-member-a', held('a', WALL + 2_000))], DURATION + 1);
    expect(seen.liveMembers(true, DURATION + 2, WALL)).toEqual(['a', 'me']);
  });

  it('takes a membership Lease first seen stale by two lease durations for dead at once, and only then', () => {
    const seen = view();
    seen.absorb(
      [
        lease('scoby-member-old', held('old', WALL - 2 * DURATION - 1)),
        lease('scoby-member-recent', held('recent', WALL - 2 * DURATION + 1)),
      ],
      0,
    );
    expect(seen.liveMembers(false, 1, WALL)).toEqual(['recent']);
    // Once it changes, observation alone decides, whatever its clock says.
    seen.absorb([lease('scoby-member-old', held('old', WALL - 3 * DURATION))], 2);
    expect(seen.liveMembers(false, 3, WALL)).toEqual(['old']);
  });

  it('judges the legacy Lease: closed under an older-mode holder until it expires, open under a member', () => {
    const seen = view();
    seen.absorb([lease('leader', held('old-mode-replica'))], 0);
    expect(seen.legacyVerdict('leader', DURATION - 1)).toEqual({ kind: 'closed' });
    expect(seen.legacyVerdict('leader', DURATION)).toEqual({ kind: 'take', open: false });

    seen.absorb([lease('scoby-member-a', held('a')), lease('leader', held('a'))], 0);
    expect(seen.legacyVerdict('leader', DURATION / 3 - 1)).toEqual({ kind: 'open' });
    // Unchanged for a third of a lease duration: another member takes it over, and works on.
    expect(seen.legacyVerdict('leader', DURATION / 3)).toEqual({ kind: 'take', open: true });

    seen.absorb([lease('leader', held('me'))], 0);
    expect(seen.legacyVerdict('leader', 1)).toEqual({ kind: 'take', open: true });
    seen.absorb([lease('leader', { holderIdentity: '' })], 0);
    expect(seen.legacyVerdict('leader', 1)).toEqual({ kind: 'take', open: false });
    seen.absorb([], 0);
    expect(seen.legacyVerdict('leader', 1)).toEqual({ kind: 'take', open: false });
  });

  it('remembers a member after its membership Lease is deleted, so the Lease it kept stays a member’s', () => {
    const seen = view();
    seen.absorb([lease('scoby-member-a', held('a')), lease('leader', held('a'))], 0);
    seen.absorb([lease('leader', held('a'))], 1);
    expect(seen.isKnownMember('a')).toBe(true);
    expect(seen.isKnownMember('me')).toBe(true);
    expect(seen.isKnownMember('old-mode-replica')).toBe(false);
    expect(seen.legacyVerdict('leader', 2)).toEqual({ kind: 'open' });
  });

  it('collects members without holder or dead for ten lease durations, and free Leases of gone keys only', () => {
    const seen = view();
    const registration = { 'scoby.triggermesh.io/lease': 'registration' };
    seen.absorb(
      [
        lease('scoby-member-me', held('me')),
        lease('scoby-member-released', { holderIdentity: '' }),
        lease('scoby-member-dead', held('dead')),
        lease('scoby-registration-kept', { holderIdentity: '' }, registration),
        lease('scoby-registration-gone-free', { holderIdentity: '' }, registration),
        lease('scoby-registration-gone-held', held('a'), registration),
        lease('scoby-registration-gone-unlabelled', { holderIdentity: '' }),
      ],
      0,
    );
    const names = (now: number) =>
      seen
        .collectable(new Set(['scoby-registration-kept']), 'scoby-member-me', now)
        .map((found) => found.name)
        .sort();
    expect(names(1)).toEqual(['scoby-member-released', 'scoby-registration-gone-free']);
    expect(names(DURATION)).toEqual([
      'scoby-member-released',
      'scoby-registration-gone-free',
      'scoby-registration-gone-held',
    ]);
    expect(names(10 * DURATION)).toEqual([
      'scoby-member-dead',
      'scoby-member-released',
      'scoby-registration-gone-free',
      'scoby-registration-gone-held',
    ]);
  });
});

describe('LeaseView edges', () => {
  it('forgets a Lease missing from a LIST: a later sight of it starts a new observation', () => {
    const seen = view();
    seen.absorb([lease('scoby-member-a', held('a'))], 0);
    expect(seen.unchangedFor('scoby-member-a', 10)).toBe(10);
    seen.absorb([], 1);
    expect(seen.get('scoby-member-a')).toBeUndefined();
    expect(seen.unchangedFor('scoby-member-a', 20)).toBe(0);
    // Back with the very record it had: observed from now, not from its first life.
    seen.absorb([lease('scoby-member-a', held('a'))], DURATION + 5);
    expect(seen.unchangedFor('scoby-member-a', DURATION + 6)).toBe(1);
    expect(seen.liveMembers(false, DURATION + 6, WALL)).toEqual(['a']);
  });

  it('judges a Lease that came back stale as seen for the first time: dead at once', () => {
    const seen = view();
    seen.absorb([lease('scoby-member-a', held('a'))], 0);
    seen.absorb([], 1);
    seen.absorb([lease('scoby-member-a', held('a', WALL - 3 * DURATION))], 2);
    expect(seen.liveMembers(false, 3, WALL)).toEqual([]);
  });

  it('counts a membership Lease renewed exactly two lease durations before as live at first sight', () => {
    const seen = view();
    seen.absorb([lease('scoby-member-a', held('a', WALL - 2 * DURATION))], 0);
    expect(seen.liveMembers(false, 1, WALL)).toEqual(['a']);
  });

  it('answers for a name it never saw: unchanged for 0 ms, free to take', () => {
    const seen = view();
    expect(seen.unchangedFor('scoby-registration-x', 5_000)).toBe(0);
    expect(seen.isFree('scoby-registration-x', 5_000)).toBe(true);
    expect(seen.get('scoby-registration-x')).toBeUndefined();
  });
});
