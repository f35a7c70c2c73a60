import { appendFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditTail, auditMicros, parseAuditLog } from '../../src/audit-log.ts';
import { auditPolicy } from '../../src/audit-policy.ts';

/** An event as kube-apiserver v1.34 writes it at level Metadata (one line of its JSON log). */
const EVENT = {
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'Metadata',
  auditID: '6f0c8f4e-5b1e-4a53-9b8a-2d0c6c1f9a10',
  stage: 'ResponseComplete',
  requestURI: '/apis/coordination.k8s.io/v1/namespaces/scoby-system/leases/scoby-controller-leader',
  verb: 'update',
  user: {
    username: 'system:serviceaccount:scoby-ha:replica-1',
    uid: '0d4b7c1e-2f0a-4c1b-8a57-61b1a1d0f5e2',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:scoby-ha', 'system:authenticated'],
  },
  sourceIPs: ['127.0.0.1'],
  userAgent: 'scoby-controller/0.1.0',
  objectRef: {
    resource: 'leases',
    namespace: 'scoby-system',
    name: 'scoby-controller-leader',
    apiGroup: 'coordination.k8s.io',
    apiVersion: 'v1',
  },
  responseStatus: { metadata: {}, code: 200 },
  requestReceivedTimestamp: '2026-03-04T05:06:07.123456Z',
  stageTimestamp: '2026-03-04T05:06:07.130001Z',
  annotations: { 'authorization.k8s.io/decision': 'allow' },
};

describe('the audit log reader', () => {
  it('reads each event as who, verb, URI, object, code and timestamps', () => {
    const watch = {
      ...EVENT,
      auditID: 'a2',
      stage: 'ResponseStarted',
      verb: 'watch',
      requestURI: '/api/v1/namespaces?watch=true',
      objectRef: { resource: 'namespaces', apiVersion: 'v1' },
      responseStatus: undefined,
      userAgent: undefined,
    };
    expect(parseAuditLog(`${JSON.stringify(EVENT)}\n${JSON.stringify(watch)}\n`)).toEqual([
      {
        auditID: '6f0c8f4e-5b1e-4a53-9b8a-2d0c6c1f9a10',
        stage: 'ResponseComplete',
        user: 'system:serviceaccount:scoby-ha:replica-1',
        verb: 'update',
        requestURI: '/apis/coordination.k8s.io/v1/namespaces/scoby-system/leases/scoby-controller-leader',
        objectRef: EVENT.objectRef,
        code: 200,
        requestReceivedTimestamp: '2026-03-04T05:06:07.123456Z',
        stageTimestamp: '2026-03-04T05:06:07.130001Z',
        userAgent: 'scoby-controller/0.1.0',
      },
      {
        auditID: 'a2',
        stage: 'ResponseStarted',
        user: 'system:serviceaccount:scoby-ha:replica-1',
        verb: 'watch',
        requestURI: '/api/v1/namespaces?watch=true',
        objectRef: { resource: 'namespaces', apiVersion: 'v1' },
        requestReceivedTimestamp: '2026-03-04T05:06:07.123456Z',
        stageTimestamp: '2026-03-04T05:06:07.130001Z',
      },
    ]);
  });

  it('keeps the request body of an event at level Request', () => {
    const requestObject = {
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: { name: 'scoby-registration-shop', namespace: 'scoby-system', resourceVersion: '812' },
      spec: { holderIdentity: 'node-a_0d4b7c1e', leaseDurationSeconds: 15 },
    };
    const [entry] = parseAuditLog(`${JSON.stringify({ ...EVENT, level: 'Request', requestObject })}\n`);
    expect(entry?.requestObject).toEqual(requestObject);
  });

  it('leaves a last line still being written for the next read', () => {
    const line = JSON.stringify(EVENT);
    expect(parseAuditLog(`${line}\n${line.slice(0, 40)}`)).toHaveLength(1);
    expect(parseAuditLog(line.slice(0, 40))).toEqual([]);
    expect(parseAuditLog('')).toEqual([]);
  });

  it('refuses a file that is not an audit log', () => {
    expect(() => parseAuditLog('{"level":30,"msg":"started"}\n')).toThrow(
      'not an audit event: {"level":30,"msg":"started"}',
    );
    expect(() => parseAuditLog('I0304 05:06:07 started\n')).toThrow(SyntaxError);
  });

  it('orders timestamps to the microsecond', () => {
    expect(auditMicros('2026-03-04T05:06:07.123456Z')).toBe(Date.UTC(2026, 2, 4, 5, 6, 7) * 1000 + 123_456);
    expect(auditMicros('2026-03-04T05:06:07.000002Z') - auditMicros('2026-03-04T05:06:07.000001Z')).toBe(1);
    expect(auditMicros('2026-03-04T05:06:07Z')).toBe(Date.UTC(2026, 2, 4, 5, 6, 7) * 1000);
    expect(() => auditMicros('2026-03-04 05:06:07')).toThrow('not an audit timestamp: "2026-03-04 05:06:07"');
  });
});

describe('the audit policy', () => {
  it('records the scoby-ha ServiceAccounts at Metadata, their Lease requests with bodies, and nothing else', () => {
    const userGroups = ['system:serviceaccounts:scoby-ha'];
    expect(auditPolicy()).toEqual({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      omitStages: ['RequestReceived'],
      rules: [
        {
          level: 'Request',
          userGroups,
          resources: [{ group: 'coordination.k8s.io', resources: ['leases'] }],
        },
        { level: 'Metadata', userGroups },
        { level: 'None' },
      ],
    });
  });

  it('keeps the answered object of the writes of the resources asked for, without managedFields', () => {
    const userGroups = ['system:serviceaccounts:scoby-ha'];
    expect(auditPolicy('scoby-ha', [{ group: 'apps', resources: ['deployments'] }])).toEqual({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      omitStages: ['RequestReceived'],
      omitManagedFields: true,
      rules: [
        {
          level: 'Request',
          userGroups,
          resources: [{ group: 'coordination.k8s.io', resources: ['leases'] }],
        },
        {
          level: 'RequestResponse',
          userGroups,
          verbs: ['create', 'update', 'patch'],
          resources: [{ group: 'apps', resources: ['deployments'] }],
        },
        { level: 'Metadata', userGroups },
        { level: 'None' },
      ],
    });
  });

  it('reads the answered object of an event', () => {
    const line = JSON.stringify({
      auditID: 'a',
      stage: 'ResponseComplete',
      verb: 'patch',
      user: { username: 'system:serviceaccount:scoby-ha:replica-0' },
      responseObject: { kind: 'Deployment', metadata: { resourceVersion: '42' } },
    });
    expect(parseAuditLog(`${line}\n`)[0]?.responseObject).toEqual({
      kind: 'Deployment',
      metadata: { resourceVersion: '42' },
    });
  });
});

describe('following the audit log', () => {
  it('returns the events completed since the last read, and keeps an event being written for the next', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audit-tail-'));
    const path = join(dir, 'audit.log');
    const event = (auditID: string) =>
      JSON.stringify({ auditID, stage: 'ResponseComplete', verb: 'get', user: { username: 'u' } });
    const tail = new AuditTail(path);
    expect(await tail.read()).toEqual([]);
    await writeFile(path, `${event('a')}\n${event('b')}\n${event('c').slice(0, 10)}`);
    expect((await tail.read()).map((entry) => entry.auditID)).toEqual(['a', 'b']);
    await appendFile(path, `${event('c').slice(10)}\n${event('d')}\n`);
    expect((await tail.read()).map((entry) => entry.auditID)).toEqual(['c', 'd']);
    expect(await tail.read()).toEqual([]);
  });
});
