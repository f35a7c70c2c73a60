import { describe, expect, it } from 'vitest';
import {
  blockedBy,
  candidates,
  claimsOf,
  servingRegistration,
  type RegistrationClaim,
} from '../../src/registration/selection.ts';

const CRD = 'queues.example.com';
const claim = (name: string, day: number, fields: Partial<RegistrationClaim> = {}): RegistrationClaim => ({
  name,
  crd: CRD,
  creationTimestamp: `2025-01-0${day}T00:00:00Z`,
  ...fields,
});
const canary = { selector: { matchLabels: { track: 'canary' } } };

describe('instance selection (registration.md §6.8)', () => {
  it('orders oldest first and stops at the first registration that selects every instance', () => {
    const claims = [
      claim('stable', 2),
      claim('canary', 1, canary),
      claim('late', 3),
      claim('late-canary', 4, canary),
      { ...claim('other', 1), crd: 'x.example.com' },
    ];
    expect(candidates(claims, CRD).map((entry) => entry.name)).toEqual(['canary', 'stable']);
    expect(blockedBy(claims, CRD, 'late')).toBe('stable');
    expect(blockedBy(claims, CRD, 'late-canary')).toBe('stable');
    expect(blockedBy(claims, CRD, 'canary')).toBeUndefined();
  });

  it('an empty selector selects everything, as in Kubernetes', () => {
    const claims = [
      claim('a', 1, { selector: {}, namespaceSelector: { matchLabels: {} } }),
      claim('b', 2, canary),
    ];
    expect(blockedBy(claims, CRD, 'b')).toBe('a');
  });

  it('serves each instance by the first candidate whose instance and namespace selectors match', () => {
    const serving = candidates(
      [
        claim('prod-canary', 1, { ...canary, namespaceSelector: { matchLabels: { env: 'prod' } } }),
        claim('canary', 2, canary),
        claim('stable', 3, {
          selector: { matchExpressions: [{ key: 'track', operator: 'NotIn', values: ['canary'] }] },
        }),
      ],
      CRD,
    );
    const labels = (instance: Record<string, string>, namespace?: Record<string, string>) => ({
      instance,
      namespace,
    });
    expect(servingRegistration(serving, labels({ track: 'canary' }, { env: 'prod' }))).toBe('prod-canary');
    expect(servingRegistration(serving, labels({ track: 'canary' }, { env: 'dev' }))).toBe('canary');
    expect(servingRegistration(serving, labels({}, {}))).toBe('stable');
    expect(
      servingRegistration(candidates([claim('canary', 1, canary)], CRD), labels({}, {})),
    ).toBeUndefined();
  });

  it('reads claims from registrations as written', () => {
    expect(
      claimsOf([
        {
          apiVersion: 'scoby.triggermesh.io/v1alpha1',
          kind: 'CRDRegistration',
          metadata: { name: 'c', creationTimestamp: '2025-01-01T00:00:00Z' },
          spec: { crd: CRD, workload: { fromImage: { repo: 'x' } }, selector: canary.selector },
        },
      ]),
    ).toEqual([claim('c', 1, canary)]);
  });
});
