/** The judge of writes against registration Lease terms (lease-terms.ts), on hand-made request logs. */
import { describe, expect, it } from 'vitest';
import { judgeTerms, type RecordedRequest } from './lease-terms.ts';

const LEASE = '/apis/coordination.k8s.io/v1/namespaces/scoby-system/leases/scoby-registration-shop';
const lease = (user: string, holder: string, code = 200): RecordedRequest => ({
  user,
  method: 'PUT',
  path: LEASE,
  code,
  leaseHolder: holder,
});
const write = (user: string): RecordedRequest => ({
  user,
  method: 'PUT',
  path: '/apis/apps/v1/namespaces/shop/deployments/shop-a',
  code: 200,
});
const registrationOf = (path: string) => (path.includes('/namespaces/shop/') ? 'shop' : undefined);

describe('judging writes against Lease terms', () => {
  it('accepts writes of the term holder, renewals included, and counts terms', () => {
    const report = judgeTerms(
      [
        lease('a', 'a-id'),
        write('a'),
        lease('a', 'a-id'),
        write('a'),
        lease('a', ''),
        lease('b', 'b-id'),
        write('b'),
      ],
      registrationOf,
    );
    expect(report).toEqual({ writesByUser: { a: 2, b: 1 }, violations: [], terms: { shop: 2 } });
  });

  it('calls a write after the writer’s term ended stale, and one by a writer that never held it double', () => {
    const report = judgeTerms(
      [lease('a', 'a-id'), lease('b', 'b-id'), write('a'), write('c'), lease('c', 'c-id', 409), write('c')],
      registrationOf,
    );
    const path = 'PUT /apis/apps/v1/namespaces/shop/deployments/shop-a 200';
    expect(report.violations).toEqual([
      { registration: 'shop', user: 'a', request: path, termHolder: 'b', kind: 'stale' },
      { registration: 'shop', user: 'c', request: path, termHolder: 'b', kind: 'double' },
      { registration: 'shop', user: 'c', request: path, termHolder: 'b', kind: 'double' },
    ]);
  });
});
