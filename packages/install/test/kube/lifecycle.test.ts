/**
 * Day two on the real control plane, for the Helm chart, the release manifest and the kustomize base,
 * with the commands of docs/operations/install.md, upgrade.md and uninstall.md run as written:
 * install, register a CRD (the Greeter sample and its aggregated ClusterRole, with Scoby running as
 * the installed ServiceAccount), upgrade to a rebuilt version (a copy of deploy/ one version on),
 * apply that version again, then uninstall, after which nothing of Scoby is left. On kwok the pods run
 * no container: this proves the manifests and the commands, not the image.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startControlPlane, type ControlPlane } from '@scoby/kube-control-plane';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE_MANIFEST, REPOSITORY_ROOT } from '../../src/paths.ts';
import { eventually, startController, type LocalController } from './controller.ts';
import { runDocumented, shellBlocks } from './documented.ts';
import { VALUES_MATRIX, writeValuesFile } from './values-matrix.ts';
import { startFinalizeHook } from './finalize-hook.ts';
import { CHART, HELM, KUBECTL, objectsOf, run, succeed, type KubeObject } from './tools.ts';

const NAMESPACE = 'scoby-system';
const SAMPLES = join(REPOSITORY_ROOT, 'apps/controller/samples');
const AGGREGATED = 'scoby-controller-crdregistrations';
const CURRENT = (
  JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'apps/controller/package.json'), 'utf8')) as {
    version: string;
  }
).version;
const REBUILT = `${CURRENT}-rebuilt`;
const GREETER_RULES = objectsOf(readFileSync(join(SAMPLES, 'greeter-clusterrole.yaml'), 'utf8'))[0]!['rules'];
/** What the release manifest creates outside any namespace besides the CRD: none may be left. */
const CLUSTER_OBJECTS = objectsOf(readFileSync(join(REPOSITORY_ROOT, RELEASE_MANIFEST), 'utf8'))
  .filter((object) => ['ClusterRole', 'ClusterRoleBinding'].includes(object.kind))
  .map((object) => `${object.kind.toLowerCase()}/${object.metadata.name}`);

/** deploy/ copied with the next version: the chart's version and appVersion, the manifest's image. */
function rebuiltDeploy(): string {
  const root = mkdtempSync(join(tmpdir(), 'scoby-rebuilt-'));
  cpSync(join(REPOSITORY_ROOT, 'deploy'), join(root, 'deploy'), { recursive: true });
  const bump = (path: string, from: string, to: string) => {
    const file = join(root, path);
    const text = readFileSync(file, 'utf8');
    if (!text.includes(from)) throw new Error(`${path} has no ${from}`);
    writeFileSync(file, text.replaceAll(from, to));
  };
  bump('deploy/helm/scoby/Chart.yaml', `version: ${CURRENT}`, `version: ${REBUILT}`);
  bump('deploy/helm/scoby/Chart.yaml', `appVersion: ${CURRENT}`, `appVersion: ${REBUILT}`);
  bump(RELEASE_MANIFEST, `image: scoby-controller:${CURRENT}`, `image: scoby-controller:${REBUILT}`);
  return root;
}

/** deploy/ as earlier releases shipped it: `rules: []` on the aggregated ClusterRoles. */
function earlierDeploy(): string {
  const root = mkdtempSync(join(tmpdir(), 'scoby-earlier-'));
  cpSync(join(REPOSITORY_ROOT, 'deploy'), join(root, 'deploy'), { recursive: true });
  for (const path of [RELEASE_MANIFEST, 'deploy/helm/scoby/templates/rbac.yaml']) {
    const file = join(root, path);
    const text = readFileSync(file, 'utf8');
    const withRules = text.replace(/^aggregationRule:\n(?:(?: |- ).*\n)*/gm, (rule) => `${rule}rules: []\n`);
    if (withRules.match(/^rules: \[\]$/gm)?.length !== 2)
      throw new Error(`${path}: two aggregated roles expected`);
    writeFileSync(file, withRules);
  }
  return root;
}

interface Method {
  name: string;
  install: string;
  upgrade: string;
  uninstall: string;
  /** The image repository the install command sets. */
  repository: string;
}

const METHODS: Method[] = [
  {
    name: 'Helm chart',
    install: '## Helm',
    upgrade: '### Helm',
    uninstall: '### Helm',
    repository: 'registry.example.com/scoby-controller',
  },
  {
    name: 'release manifest',
    install: '## Release manifest',
    upgrade: '### Release manifest',
    uninstall: '### Release manifest',
    repository: 'scoby-controller',
  },
  {
    name: 'kustomize base',
    install: '## Kustomize',
    upgrade: '### Kustomize',
    uninstall: '### Kustomize',
    repository: 'scoby-controller',
  },
];

describe('install, upgrade, re-apply and uninstall as documented, on the real control plane', () => {
  let plane: ControlPlane;
  let rebuilt: string;
  let earlier: string;
  let controller: LocalController | undefined;
  const kubectl = (...args: string[]) => succeed(KUBECTL, ['--kubeconfig', plane.kubeconfigPath, ...args]);
  const documented = (file: string, heading: string, cwd = REPOSITORY_ROOT): Promise<string> =>
    runDocumented(shellBlocks(file, heading)[0]!, { kubeconfig: plane.kubeconfigPath, cwd });
  const aggregatedRules = () =>
    (JSON.parse(kubectl('get', 'clusterrole', AGGREGATED, '-o', 'json')) as { rules?: unknown }).rules;
  const controllerLog = () => controller?.log().slice(-4000) ?? '';

  beforeAll(async () => {
    plane = await startControlPlane({ log: (line) => console.log(`[lifecycle] ${line}`) });
    rebuilt = rebuiltDeploy();
    earlier = earlierDeploy();
  });
  afterAll(async () => {
    await controller?.stop();
    await plane?.stop();
    for (const dir of [rebuilt, earlier])
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  // After a failure, whatever was left, so that the next install method starts on a clean cluster
  // (after a success there is nothing left and this does nothing).
  afterEach(async () => {
    await controller?.stop();
    controller = undefined;
    const quietly = (command: string, ...args: string[]) =>
      run(command, ['--kubeconfig', plane.kubeconfigPath, ...args]);
    const registrations = quietly(KUBECTL, 'get', 'crdregistrations', '-o', 'name').stdout.split('\n');
    for (const registration of registrations.filter((name) => name !== ''))
      quietly(KUBECTL, 'patch', registration, '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
    quietly(HELM, 'uninstall', 'scoby', '-n', NAMESPACE, '--ignore-not-found', '--wait');
    quietly(KUBECTL, 'delete', '-f', join(REPOSITORY_ROOT, RELEASE_MANIFEST), '--ignore-not-found');
    for (const file of ['greeter-instance.yaml', 'greeter-crd.yaml', 'greeter-clusterrole.yaml'])
      quietly(KUBECTL, 'delete', '-f', join(SAMPLES, file), '--ignore-not-found');
  });

  async function installAsDocumented(heading: string, cwd = REPOSITORY_ROOT): Promise<void> {
    await documented('operations/install.md', heading, cwd);
    kubectl(
      'wait',
      '--for=condition=Established',
      'crd/crdregistrations.scoby.triggermesh.io',
      '--timeout=60s',
    );
  }

  /** The Greeter sample registered and Ready, with Scoby running as the installed ServiceAccount. */
  async function registerGreeter(finalizeHook?: string): Promise<void> {
    controller = await startController(plane, NAMESPACE, 'scoby-controller');
    for (const file of ['greeter-crd.yaml', 'greeter-clusterrole.yaml'])
      kubectl('apply', '--server-side', '-f', join(SAMPLES, file));
    kubectl('wait', '--for=condition=Established', 'crd/greeters.samples.scoby.dev', '--timeout=60s');
    const registration = objectsOf(readFileSync(join(SAMPLES, 'greeter-registration.yaml'), 'utf8'))[0]!;
    if (finalizeHook !== undefined) {
      const spec = registration['spec'] as Record<string, unknown>;
      spec['hook'] = { version: 'v1', address: { uri: finalizeHook }, capabilities: ['finalize'] };
    }
    applyObject(registration);
    kubectl('apply', '--server-side', '-f', join(SAMPLES, 'greeter-instance.yaml'));
    await eventually(
      'the registration to be Ready',
      () =>
        kubectl(
          'get',
          'crdregistration',
          'greeter',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
        ) === 'True'
          ? true
          : undefined,
      120_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; controller log:\n${controllerLog()}`);
    });
    expect(kubectl('get', 'crdregistration', 'greeter', '-o', 'jsonpath={.metadata.finalizers}')).toBe(
      '["scoby.triggermesh.io/finalizer"]',
    );
    // The aggregation controller has written the Greeter rules: from now on it owns `.rules`.
    await eventually(
      'the Greeter rules aggregated',
      () => (JSON.stringify(aggregatedRules()) === JSON.stringify(GREETER_RULES) ? true : undefined),
      60_000,
    );
  }

  const applyObject = (object: KubeObject) =>
    succeed(KUBECTL, ['--kubeconfig', plane.kubeconfigPath, 'apply', '--server-side', '-f', '-'], {
      input: JSON.stringify(object),
    });
  const finalizersOf = (name: string) =>
    kubectl('get', 'greeter', name, '-n', 'default', '-o', 'jsonpath={.metadata.finalizers}');

  function expectNothingOfScobyLeft(): void {
    expect(
      kubectl('get', 'crd', 'crdregistrations.scoby.triggermesh.io', '--ignore-not-found', '-o', 'name'),
    ).toBe('');
    expect(kubectl('get', 'namespace', NAMESPACE, '--ignore-not-found', '-o', 'name')).toBe('');
    expect(kubectl('get', ...CLUSTER_OBJECTS, '--ignore-not-found', '-o', 'name')).toBe('');
    expect(
      kubectl(
        'get',
        'clusterroles,clusterrolebindings',
        '-l',
        'app.kubernetes.io/part-of=scoby',
        '-o',
        'name',
      ),
    ).toBe('');
    expect(succeed(HELM, ['--kubeconfig', plane.kubeconfigPath, 'list', '--all-namespaces', '--short'])).toBe(
      '',
    );
  }

  /** The user's objects stay (uninstall.md says so); removed here so the next method starts clean. */
  function removeGreeter(): void {
    expect(kubectl('get', 'greeter', 'hello', '-n', 'default', '-o', 'jsonpath={.metadata.name}')).toBe(
      'hello',
    );
    for (const file of ['greeter-instance.yaml', 'greeter-crd.yaml', 'greeter-clusterrole.yaml'])
      kubectl('delete', '-f', join(SAMPLES, file), '--ignore-not-found');
  }

  it('kube-apiserver accepts what every values file of the matrix renders (server-side dry run)', () => {
    kubectl('create', 'namespace', 'ops');
    for (const name of Object.keys(VALUES_MATRIX)) {
      const rendered = objectsOf(
        succeed(HELM, ['template', 'scoby', CHART, '-n', 'ops', '-f', writeValuesFile(name)]),
      ).filter((object) => object.kind !== 'ServiceMonitor'); // its CRD is Prometheus Operator's
      const applied = succeed(
        KUBECTL,
        ['--kubeconfig', plane.kubeconfigPath, 'apply', '--server-side', '--dry-run=server', '-f', '-'],
        { input: rendered.map((object) => JSON.stringify(object)).join('\n') },
      );
      expect(applied.trim().split('\n'), name).toHaveLength(rendered.length);
    }
    kubectl('delete', 'namespace', 'ops');
  });

  for (const method of METHODS) {
    it(`${method.name}: upgrade and re-apply keep the aggregated rules; uninstall leaves nothing`, async () => {
      await installAsDocumented(method.install);
      await registerGreeter();

      const upgraded = await documented('operations/upgrade.md', method.upgrade, rebuilt);
      const image = () =>
        kubectl(
          'get',
          'deployment',
          'scoby-controller',
          '-n',
          NAMESPACE,
          '-o',
          'jsonpath={.spec.template.spec.containers[0].image}',
        );
      expect(image(), upgraded).toBe(`${method.repository}:${REBUILT}`);
      expect(aggregatedRules()).toEqual(GREETER_RULES);
      // The same version applied again: what GitOps tools and `helm upgrade` of unchanged values do.
      await documented('operations/upgrade.md', method.upgrade, rebuilt);
      expect(image()).toBe(`${method.repository}:${REBUILT}`);
      expect(aggregatedRules()).toEqual(GREETER_RULES);
      if (method.name === 'Helm chart') {
        const status = JSON.parse(
          succeed(HELM, [
            '--kubeconfig',
            plane.kubeconfigPath,
            'status',
            'scoby',
            '-n',
            NAMESPACE,
            '-o',
            'json',
          ]),
        ) as { version: number; info: { status: string } };
        expect({ revision: status.version, status: status.info.status }).toEqual({
          revision: 3,
          status: 'deployed',
        });
      }
      const watched = await documented('operations/upgrade.md', '### Then');
      expect(watched).toContain('deployment "scoby-controller" successfully rolled out');
      expect(watched).toMatch(/\ngreeter +greeters\.samples\.scoby\.dev +True +/);

      await documented('operations/uninstall.md', '## 1. Release the registrations');
      expect(kubectl('get', 'crdregistrations', '-o', 'name')).toBe('');
      expect(finalizersOf('hello')).toBe('');
      // Deleting the Deployment ends its pods; here the controller is this local process.
      await controller?.stop();
      controller = undefined;
      await documented('operations/uninstall.md', method.uninstall, rebuilt);
      expectNothingOfScobyLeft();
      removeGreeter();
    });
  }

  for (const method of METHODS) {
    it(`${method.name}: an installation made with \`rules: []\` on the aggregated roles upgrades cleanly`, async () => {
      await installAsDocumented(method.install, earlier);
      await registerGreeter();
      await documented('operations/upgrade.md', method.upgrade);
      expect(aggregatedRules()).toEqual(GREETER_RULES);
      await documented('operations/upgrade.md', method.upgrade);
      expect(aggregatedRules()).toEqual(GREETER_RULES);
      await documented('operations/uninstall.md', '## 1. Release the registrations');
      await controller?.stop();
      controller = undefined;
      await documented('operations/uninstall.md', method.uninstall);
      expectNothingOfScobyLeft();
      removeGreeter();
    });
  }

  it('uninstall with a finalize hook: an instance being deleted gets its last call and goes, the others only lose the finalizer', async () => {
    const hook = await startFinalizeHook(['stuck']);
    try {
      await installAsDocumented('## Release manifest');
      await registerGreeter(hook.url);
      const hello = objectsOf(readFileSync(join(SAMPLES, 'greeter-instance.yaml'), 'utf8'))[0]!;
      applyObject({ ...hello, metadata: { ...hello.metadata, name: 'stuck' } });
      for (const name of ['hello', 'stuck'])
        await eventually(
          `Scoby's finalizer on ${name}`,
          () => (finalizersOf(name) === '["scoby.triggermesh.io/finalizer"]' ? true : undefined),
          60_000,
        );
      // The hook refuses to let `stuck` go: its deletion waits on Scoby's finalizer.
      kubectl('delete', 'greeter', 'stuck', '-n', 'default', '--wait=false');
      await eventually(
        'the refused finalize call',
        () => hook.calls.find((call) => call.phase === 'finalize' && call.name === 'stuck'),
        60_000,
      );
      expect(finalizersOf('stuck')).toBe('["scoby.triggermesh.io/finalizer"]');

      const releasing = Date.now();
      await documented('operations/uninstall.md', '## 1. Release the registrations');

      await eventually(
        'stuck to be gone',
        () =>
          kubectl('get', 'greeter', 'stuck', '-n', 'default', '--ignore-not-found', '-o', 'name') === ''
            ? true
            : undefined,
        30_000,
      );
      expect(
        hook.calls.filter((call) => call.name === 'stuck' && call.at >= releasing).map((call) => call.phase),
      ).toContain('finalize');
      // `hello` was not being deleted: no call, its finalizer is simply removed and it stays.
      expect(hook.calls.filter((call) => call.name === 'hello')).toEqual([]);
      expect(finalizersOf('hello')).toBe('');

      await controller?.stop();
      controller = undefined;
      await documented('operations/uninstall.md', '### Release manifest');
      expectNothingOfScobyLeft();
      removeGreeter();
    } finally {
      await hook.close();
    }
  });

  it('everything deleted at once leaves the CRD Terminating, and the documented recovery ends it', async () => {
    await installAsDocumented('## Release manifest');
    await registerGreeter();
    // The worst order: the controller is gone before its registrations are deleted.
    await controller?.stop();
    controller = undefined;
    kubectl('delete', '-f', join(REPOSITORY_ROOT, RELEASE_MANIFEST), '--wait=false');
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(
      kubectl(
        'get',
        'crd',
        'crdregistrations.scoby.triggermesh.io',
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Terminating")].status}',
      ),
    ).toBe('True');
    expect(kubectl('get', 'crdregistration', 'greeter', '-o', 'jsonpath={.metadata.finalizers}')).toBe(
      '["scoby.triggermesh.io/finalizer"]',
    );

    await documented('operations/uninstall.md', '## If the CRD is stuck Terminating');
    kubectl(
      'wait',
      '--for=delete',
      'crd/crdregistrations.scoby.triggermesh.io',
      `namespace/${NAMESPACE}`,
      '--timeout=120s',
    );
    expectNothingOfScobyLeft();
    removeGreeter();
  });
});
