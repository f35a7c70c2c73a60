/**
 * The fault bench's reading of the audit log: stale writes are judged in resourceVersion order across
 * replicas, whatever order the log wrote them in; a finalizer removal before the hook's consent is
 * caught; lists and watches are counted per informer within a window.
 */
import type { AuditEntry } from '@scoby/kube-control-plane';
import { describe, expect, it } from 'vitest';
import { AuditJudge, SCOBY_FINALIZER } from '../../bench/faults/audit-judge.ts';

const HASH = 'scoby.triggermesh.io/desired-hash';
const at = (second: number) => `2026-11-29T10:00:${String(second).padStart(2, '0')}.000000Z`;

function write(
  resource: string,
  object: Record<string, unknown>,
  options: { second: number; user?: string; subresource?: string; group?: string },
): AuditEntry {
  return {
    auditID: `${resource}-${options.second}-${Math.random()}`,
    stage: 'ResponseComplete',
    user: options.user ?? 'system:serviceaccount:scoby-ha:replica-0',
    verb: 'patch',
    requestURI: `/apis/x/${resource}`,
    objectRef: {
      resource,
      namespace: 'bench',
      apiGroup: options.group ?? (resource === 'deployments' ? 'apps' : 'faults.example.com'),
      ...(options.subresource ? { subresource: options.subresource } : {}),
    },
    code: 200,
    requestReceivedTimestamp: at(options.second),
    stageTimestamp: at(options.second),
    responseObject: object,
  };
}

function deployment(resourceVersion: string, hash: string) {
  return {
    kind: 'Deployment',
    metadata: {
      name: 'widget0-a',
      namespace: 'bench',
      resourceVersion,
      annotations: { [HASH]: hash },
      ownerReferences: [
        { apiVersion: 'faults.example.com/v1', kind: 'Widget0', name: 'a', uid: 'u-a', controller: true },
      ],
    },
  };
}

const judge = () =>
  new AuditJudge({ childResources: ['deployments', 'services'], instanceGroup: 'faults.example.com' });
const revisions: Record<string, number> = { h1: 1, h2: 2, h3: 3 };
const revisionOf = async (_owner: unknown, hash: string) => revisions[hash];

describe('AuditJudge', () => {
  it('finds a child write whose desired state goes back in resourceVersion order, across replicas', async () => {
    const audit = judge();
    // Logged in completion order; stored (resourceVersion) order is 10, 12, 11, 13.
    audit.add([
      write('deployments', deployment('10', 'h1'), { second: 1 }),
      write('deployments', deployment('12', 'h3'), {
        second: 3,
        user: 'system:serviceaccount:scoby-ha:replica-1',
      }),
      write('deployments', deployment('11', 'h2'), { second: 2 }),
      write('deployments', deployment('13', 'h2'), { second: 4 }),
      write('deployments', deployment('14', 'unknown'), { second: 5 }),
    ]);
    const { stale, judged, unjudged } = await audit.staleWrites(revisionOf);
    expect(stale).toEqual([
      {
        object: 'deployments bench/widget0-a',
        user: 'system:serviceaccount:scoby-ha:replica-0',
        atMicros: Date.parse(at(4)) * 1000,
        wrote: 2,
        after: 3,
      },
    ]);
    expect({ judged, unjudged }).toEqual({ judged: 4, unjudged: 1 });
  });

  it('finds a status write whose observedGeneration goes back', async () => {
    const audit = judge();
    const status = (resourceVersion: string, observedGeneration: number) => ({
      kind: 'Widget0',
      metadata: { name: 'a', namespace: 'bench', resourceVersion },
      status: { observedGeneration },
    });
    audit.add([
      write('widget0s', status('20', 4), { second: 1, subresource: 'status' }),
      write('widget0s', status('21', 3), { second: 2, subresource: 'status' }),
      write('widget0s', status('22', 4), { second: 3, subresource: 'status' }),
    ]);
    const { stale } = await audit.staleWrites(revisionOf);
    expect(stale.map(({ object, wrote, after }) => ({ object, wrote, after }))).toEqual([
      { object: 'widget0s bench/a', wrote: 3, after: 4 },
    ]);
  });

  it('finds a finalizer removed from a deleted instance before its hook consented', () => {
    const audit = judge();
    const deleted = (uid: string, finalizers: string[]) => ({
      kind: 'Widget8',
      metadata: {
        name: uid,
        namespace: 'bench',
        uid,
        resourceVersion: '5',
        deletionTimestamp: at(0),
        finalizers,
      },
    });
    audit.add([
      write('widget8s', deleted('early', []), { second: 2 }),
      write('widget8s', deleted('consented', []), { second: 4 }),
      write('widget8s', deleted('kept', [SCOBY_FINALIZER]), { second: 5 }),
    ]);
    const consents: Record<string, number> = { early: Date.parse(at(3)), consented: Date.parse(at(3)) };
    expect(audit.unconsentedRemovals((uid) => consents[uid])).toEqual([
      {
        object: 'widget8s bench/early',
        user: 'system:serviceaccount:scoby-ha:replica-0',
        atMicros: Date.parse(at(2)) * 1000,
      },
    ]);
  });

  it('counts lists and started watches per informer within a window, polls of what is never watched left out', () => {
    const audit = judge();
    const read = (verb: string, stage: string, second: number, uri: string, resource = 'deployments') => ({
      auditID: `${verb}-${second}`,
      stage,
      user: 'system:serviceaccount:scoby-ha:replica-0',
      verb,
      requestURI: uri,
      objectRef: { resource, apiGroup: 'apps' },
      ...(stage === 'ResponseComplete' ? { code: 200 } : {}),
      requestReceivedTimestamp: at(second),
      stageTimestamp: at(second),
    });
    const selected = '/apis/apps/v1/deployments?labelSelector=app%3Dscoby';
    audit.add([
      read('list', 'ResponseComplete', 1, selected),
      read('watch', 'ResponseStarted', 2, `${selected}&watch=true`),
      read('watch', 'ResponseComplete', 3, `${selected}&watch=true`),
      read('watch', 'ResponseStarted', 4, `${selected}&watch=true`),
      read('list', 'ResponseComplete', 5, '/apis/apps/v1/deployments'),
      read('watch', 'ResponseStarted', 8, '/apis/apps/v1/deployments?watch=true'),
      read('list', 'ResponseComplete', 9, selected),
      // Never watched: a poll, not an informer.
      read('list', 'ResponseComplete', 3, '/apis/coordination.k8s.io/v1/leases', 'leases'),
    ]);
    expect(audit.activity(Date.parse(at(1)), Date.parse(at(5)))).toEqual([
      { informer: 'system:serviceaccount:scoby-ha:replica-0 deployments [app=scoby]', lists: 1, watches: 2 },
      { informer: 'system:serviceaccount:scoby-ha:replica-0 deployments', lists: 1, watches: 0 },
    ]);
  });
});
