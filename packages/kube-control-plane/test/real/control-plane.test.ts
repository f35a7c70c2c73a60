/**
 * The real control plane: started once for this file from the built binaries (`npm run kube-binaries`).
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import {
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  RbacAuthorizationV1Api,
  VersionApi,
  Watch,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDITED_NAMESPACE,
  KUBE_RELEASE,
  readAuditLog,
  startControlPlane,
  type ControlPlane,
} from '../../src/index.ts';

let plane: ControlPlane;
let admin: KubeConfig;

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  return line ? Number(line[1]) / 1024 : 0;
}

/** The status code kube-apiserver answers the admin for `path` (no body read). */
async function statusOf(path: string): Promise<number> {
  const options: https.RequestOptions = {};
  await admin.applyToHTTPSOptions(options);
  const url = new URL(path, plane.server);
  return new Promise((resolve, reject) => {
    const request = https.get(
      { ...options, hostname: url.hostname, port: url.port, path: url.pathname },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.setTimeout(10_000, () => request.destroy(new Error(`GET ${path}: no answer within 10 s`)));
    request.on('error', reject);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  plane = await startControlPlane({ log: (line) => console.log(`[control-plane] ${line}`) });
  admin = new KubeConfig();
  admin.loadFromString(plane.kubeconfigYaml);
  const memory = plane.pids.map((pid) => rssMiB(pid));
  console.log(
    `[control-plane] started in ${(plane.startupMs / 1000).toFixed(1)} s; RSS ${memory.map((m) => m.toFixed(0)).join(' + ')} = ${memory.reduce((a, b) => a + b, 0).toFixed(0)} MiB; load ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
  );
});

afterAll(async () => {
  await plane?.stop();
});

describe('the real control plane', () => {
  it('serves the pinned release over TLS to the admin kubeconfig', async () => {
    const version = await admin.makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toBe(KUBE_RELEASE.kubernetes);
    expect(plane.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('runs a Deployment to Available on kwok nodes through the scheduler and the Deployment controller', async () => {
    const apps = admin.makeApiClient(AppsV1Api);
    await admin.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'workloads' } } });
    const labels = { app: 'web' };
    await apps.createNamespacedDeployment({
      namespace: 'workloads',
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: { containers: [{ name: 'web', image: 'example.com/web:1' }] },
          },
        },
      },
    });
    const available = await eventually('Deployment web Available', async () => {
      const deployment = await apps.readNamespacedDeployment({ namespace: 'workloads', name: 'web' });
      const condition = deployment.status?.conditions?.find((c) => c.type === 'Available');
      return condition?.status === 'True' ? deployment : undefined;
    });
    expect(available.status?.readyReplicas).toBe(2);
    const pods = await admin.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'workloads' });
    expect(pods.items.map((pod) => pod.spec?.nodeName?.startsWith('kwok-node-'))).toEqual([true, true]);
  });

  it('collects dependents of a deleted owner (garbage collector)', async () => {
    const core = admin.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'gc' } } });
    const owner = await core.createNamespacedConfigMap({
      namespace: 'gc',
      body: { metadata: { name: 'owner' } },
    });
    await core.createNamespacedConfigMap({
      namespace: 'gc',
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! },
          ],
        },
      },
    });
    await core.deleteNamespacedConfigMap({ namespace: 'gc', name: 'owner' });
    await eventually('dependent collected', async () => {
      const list = await core.listNamespacedConfigMap({ namespace: 'gc' });
      return list.items.some((item) => item.metadata?.name === 'dependent') ? undefined : true;
    });
  });

  it('mints ServiceAccount kubeconfigs that have exactly the permissions RBAC gives', async () => {
    const yaml = await plane.serviceAccountKubeconfig('team', 'robot');
    const robot = new KubeConfig();
    robot.loadFromString(yaml);
    const core = robot.makeApiClient(CoreV1Api);
    const denied = await core
      .listNamespacedConfigMap({ namespace: 'team' })
      .catch((error: { code?: number }) => error);
    expect((denied as { code?: number }).code).toBe(403);
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({
      namespace: 'team',
      body: {
        metadata: { name: 'read-configmaps' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }],
      },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: 'team',
      body: {
        metadata: { name: 'robot' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'read-configmaps' },
        subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: 'team' }],
      },
    });
    // The root CA publisher writes kube-root-ca.crt into every namespace, the robot may now list it.
    const allowed = await eventually('list allowed', async () => {
      const list = await core.listNamespacedConfigMap({ namespace: 'team' });
      return list.items.length > 0 ? list : undefined;
    });
    expect(allowed.items.map((item) => item.metadata?.name)).toEqual(['kube-root-ca.crt']);
  });

  it('audits the requests of the scoby-ha ServiceAccounts at Metadata, and no one else’s', async () => {
    expect(AUDITED_NAMESPACE).toBe('scoby-ha');
    const replica = new KubeConfig();
    replica.loadFromString(await plane.serviceAccountKubeconfig('scoby-ha', 'replica-0'));
    const outsider = new KubeConfig();
    outsider.loadFromString(await plane.serviceAccountKubeconfig('team', 'outsider'));
    const codeOf = (request: Promise<unknown>) =>
      request.then(
        () => 200,
        (error: { code?: number }) => error.code,
      );
    expect(await codeOf(replica.makeApiClient(CoreV1Api).readNamespace({ name: 'scoby-ha' }))).toBe(403);
    expect(await codeOf(outsider.makeApiClient(CoreV1Api).readNamespace({ name: 'team' }))).toBe(403);
    await admin.makeApiClient(CoreV1Api).readNamespace({ name: 'scoby-ha' });
    // Blocking mode: the event is in the file before the answer is sent.
    const entries = await readAuditLog(plane.auditLogPath);
    expect(
      entries.map(({ user, verb, requestURI, objectRef, code, stage }) => ({
        user,
        verb,
        requestURI,
        objectRef,
        code,
        stage,
      })),
    ).toEqual([
      {
        user: 'system:serviceaccount:scoby-ha:replica-0',
        verb: 'get',
        requestURI: '/api/v1/namespaces/scoby-ha',
        // kube-apiserver names a Namespace's own namespace too.
        objectRef: { resource: 'namespaces', namespace: 'scoby-ha', name: 'scoby-ha', apiVersion: 'v1' },
        code: 403,
        stage: 'ResponseComplete',
      },
    ]);
    const [entry] = entries;
    expect(entry!.userAgent).toMatch(/\S/);
    expect(Date.parse(entry!.stageTimestamp)).toBeGreaterThanOrEqual(
      Date.parse(entry!.requestReceivedTimestamp),
    );
  });

  it('kills kube-apiserver and starts it again on its port, with its certificates and data', async () => {
    const core = admin.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'faults' } } });
    await core.createNamespacedConfigMap({
      namespace: 'faults',
      body: { metadata: { name: 'before' }, data: { kept: 'yes' } },
    });
    const apiServer = plane.component('kube-apiserver');
    const before = apiServer.pid;
    await apiServer.kill();
    expect(apiServer.running).toBe(false);
    const refused = await core.readNamespace({ name: 'faults' }).catch((error: Error) => error);
    expect(String(refused)).toMatch(/ECONNREFUSED/);
    await apiServer.start();
    expect(apiServer.pid).not.toBe(before);
    expect(plane.pids).toContain(apiServer.pid);
    const kept = await core.readNamespacedConfigMap({ namespace: 'faults', name: 'before' });
    expect(kept.data).toEqual({ kept: 'yes' });
  });

  it('pauses kube-apiserver, which then answers nothing, and resumes it', async () => {
    const core = admin.makeApiClient(CoreV1Api);
    const apiServer = plane.component('kube-apiserver');
    apiServer.pause();
    try {
      const answered = await Promise.race([
        core.readNamespace({ name: 'faults' }).then(
          () => 'answered',
          () => 'failed',
        ),
        new Promise((resolve) => setTimeout(() => resolve('no answer'), 3_000)),
      ]);
      expect(answered).toBe('no answer');
    } finally {
      apiServer.resume();
    }
    const namespace = await eventually('an answer after resume', () =>
      core.readNamespace({ name: 'faults' }),
    );
    expect(namespace.metadata?.name).toBe('faults');
  });

  it('kills etcd and starts it again with its data: the API server answers again', async () => {
    const core = admin.makeApiClient(CoreV1Api);
    const etcd = plane.component('etcd');
    await etcd.kill();
    // kube-apiserver's own check of its storage fails within seconds, while a read would wait for
    // etcd's timeout. Not at once: the check's last result is reused for a short while, and a
    // loaded machine (CI beside a long run) saw 200 just after the kill.
    const failing = await eventually(
      'readyz/etcd failing',
      async () => ((await statusOf('/readyz/etcd')) === 500 ? 500 : undefined),
      10_000,
    );
    expect(failing).toBe(500);
    await etcd.start();
    const kept = await eventually('the ConfigMap read again', () =>
      core.readNamespacedConfigMap({ namespace: 'faults', name: 'before' }),
    );
    expect(kept.data).toEqual({ kept: 'yes' });
  });

  it('answers a watch from a compacted revision 410 Gone once its watch cache is off', async () => {
    await plane.reconfigureApiServer({ watchCache: false, etcdCompactionIntervalSeconds: 1 });
    const core = admin.makeApiClient(CoreV1Api);
    const created = await core.createNamespacedConfigMap({
      namespace: 'faults',
      body: { metadata: { name: 'compacted' }, data: { n: '0' } },
    });
    const from = created.metadata!.resourceVersion!;
    // kube-apiserver compacts to the revision it saw one interval earlier: a few intervals of writes.
    for (let n = 1; n <= 4; n++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await core.replaceNamespacedConfigMap({
        namespace: 'faults',
        name: 'compacted',
        body: { metadata: { name: 'compacted' }, data: { n: String(n) } },
      });
    }
    const status = await eventually('a 410 from the watch', async () => {
      const events: Array<{ type: string; object: { code?: number; reason?: string } }> = [];
      await new Promise<void>((resolve, reject) => {
        void new Watch(admin)
          .watch(
            '/api/v1/namespaces/faults/configmaps',
            { resourceVersion: from, timeoutSeconds: 2 },
            (type, object) => events.push({ type, object }),
            () => resolve(),
          )
          .catch(reject);
      });
      return events.find((event) => event.type === 'ERROR')?.object;
    });
    expect(status).toMatchObject({ code: 410, reason: 'Expired' });
  });

  it('stops every process it started', async () => {
    const pids = [...plane.pids];
    expect(pids).toHaveLength(5);
    expect(pids.every(alive)).toBe(true);
    await plane.stop();
    expect(pids.filter(alive)).toEqual([]);
  });
});
