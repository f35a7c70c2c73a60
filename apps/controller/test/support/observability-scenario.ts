/**
 * What the controller tells its users, run alike on the in-memory server and on the real control
 * plane: Normal Events and info lines for a registration's controller and for the children it
 * creates, updates and prunes; the message of Ready=False naming the child and condition that block
 * it; no write in a steady state; a line when a deleted registration's controller stops.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapturedLogs } from '@scoby/controller-runtime/testing';
import type { KubeObject } from '@scoby/kube-objects';
import type { ScenarioBackend, ServerWrites } from './backend.ts';
import { crdFor } from './cluster.ts';
import { countsSince, requestsByMethod } from './hooks-fixtures.ts';
import {
  conditionOf,
  eventViews,
  namespaceObject,
  reconcileCount,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
} from './scoby.ts';

export const GROUP = 'obs.example.com';
export const PLURAL = 'greeters';
export const NAMESPACE = 'obs';
const API = `${GROUP}/v1`;
const REGISTRATION = 'greeter';
const HELLO = { apiVersion: API, kind: 'Greeter', namespace: NAMESPACE, name: 'hello' };
export const DEPLOYMENT_NAME = 'greeter-hello';
const DEPLOYMENT = `Deployment ${NAMESPACE}/${DEPLOYMENT_NAME}`;
const SERVICE = `Service ${NAMESPACE}/greeter-hello`;

export interface ObservabilityBackend extends ScenarioBackend {
  /** The controller's log, from info up. */
  logs: CapturedLogs;
  /**
   * The Deployment's controller reports `Available=False/MinimumReplicasUnavailable` for it: the test
   * writes that status in memory; on the real control plane a zero-pod quota (the runner's) makes
   * kube-controller-manager report it, and this waits for that.
   */
  deploymentUnavailable(namespace: string, name: string): Promise<void>;
  /** In memory only: every write the API server saw, the test's own included. */
  serverWrites?: ServerWrites;
}

function registration(withService: boolean): KubeObject {
  return registrationObject(REGISTRATION, {
    crd: `${PLURAL}.${GROUP}`,
    workload: {
      fromImage: { repo: 'registry.example.com/greeter:1' },
      formFactor: {
        deployment: { replicas: 1, ...(withService ? { service: { port: 80, targetPort: 8080 } } : {}) },
      },
      parameterConfiguration: { fromSpec: { toEnv: [{ path: 'spec.greeting', name: 'GREETING' }] } },
    },
  });
}

/** Declares the scenario's tests on the backend `start` gives (called once, before them), named `on`. */
export function observabilityScenario(on: string, start: () => Promise<ObservabilityBackend>): void {
  let backend: ObservabilityBackend;
  const cluster = () => backend.cluster;

  /** The Normal Events on the instance, oldest first. */
  const normalEvents = async () =>
    eventViews(await cluster().events(NAMESPACE, 'hello'))
      .filter((event) => event.type === 'Normal')
      .map(({ reason, message }) => ({ reason, message }));
  /** Info lines of this registration (a shared control plane holds other files' registrations too). */
  const infoLines = (msg: string) =>
    backend.logs
      .lines()
      .filter(
        (line) =>
          line.level === 'info' &&
          line.msg === msg &&
          (line.registration === REGISTRATION || String(line.instance).startsWith(`${NAMESPACE}/`)),
      );

  beforeAll(async () => {
    backend = await start();
    await cluster().apply(namespaceObject(NAMESPACE));
    await cluster().apply(crdFor({ group: GROUP, kind: 'Greeter', plural: PLURAL }));
    await cluster().apply(registration(true));
    await waitForCondition(cluster(), registrationTarget(REGISTRATION), 'Ready', 'True');
  });
  afterAll(() => backend?.stop());

  describe(`Events and log lines (${on})`, () => {
    it("announce a registration's controller when it starts", async () => {
      const started = await cluster().waitFor('the ControllerStarted Event', async () => {
        const events = eventViews(await cluster().events('default', REGISTRATION));
        return events.length > 0 ? events : undefined;
      });
      expect(started).toEqual([
        {
          type: 'Normal',
          reason: 'ControllerStarted',
          message: `started the controller of ${PLURAL}.${GROUP}`,
        },
      ]);
      // Each line names its own controller: the registration controller's start, then the start of
      // the instance controller it runs for the registration.
      const startLine = (line: Record<string, unknown>) =>
        line.level === 'info' &&
        String(line.msg).endsWith('controller started') &&
        line.msg !== 'scoby controller started';
      expect(
        backend.logs
          .lines()
          .filter(startLine)
          .filter((line) => line.registration === undefined || line.registration === REGISTRATION)
          .map(({ msg, registration, crd, version, formFactor, activeActive }) => ({
            msg,
            registration,
            crd,
            version,
            formFactor,
            activeActive,
          })),
      ).toEqual([
        {
          msg: 'registration controller started',
          registration: undefined,
          crd: undefined,
          version: undefined,
          formFactor: undefined,
          activeActive: false,
        },
        {
          msg: 'instance controller started',
          registration: REGISTRATION,
          crd: `${PLURAL}.${GROUP}`,
          version: 'v1',
          formFactor: 'deployment',
          activeActive: undefined,
        },
      ]);
    });

    it('announce children created, updated and pruned', async () => {
      await cluster().apply({ ...instanceObject(), spec: { greeting: 'hi' } });
      await cluster().waitFor('both children created', async () => (await normalEvents()).length === 1);
      // One Event for the reconcile that created both children.
      expect(await normalEvents()).toEqual([
        { reason: 'Created', message: `created ${DEPLOYMENT}, ${SERVICE}` },
      ]);
      expect(
        infoLines('child created').map(({ instance, kind, child }) => ({ instance, kind, child })),
      ).toEqual([
        { instance: `${NAMESPACE}/hello`, kind: 'Greeter', child: DEPLOYMENT },
        { instance: `${NAMESPACE}/hello`, kind: 'Greeter', child: SERVICE },
      ]);

      await cluster().edit(HELLO, (current) => ({ ...current, spec: { greeting: 'hello' } }));
      await cluster().waitFor('the Deployment updated', async () => (await normalEvents()).length === 2);
      expect((await normalEvents())[1]).toEqual({ reason: 'Updated', message: `updated ${DEPLOYMENT}` });
      expect(infoLines('child updated').map(({ child }) => child)).toEqual([DEPLOYMENT]);

      await cluster().apply(registration(false));
      await cluster().waitFor('the Service pruned', async () => (await normalEvents()).length === 3);
      expect((await normalEvents())[2]).toEqual({ reason: 'Pruned', message: `pruned ${SERVICE}` });
      expect(infoLines('child pruned').map(({ child }) => child)).toEqual([SERVICE]);
      expect(infoLines('instance controller reconfigured')).toEqual([
        expect.objectContaining({ registration: REGISTRATION }),
      ]);
    });
  });

  describe(`Ready=False (${on})`, () => {
    it('names the child and the condition that block it', async () => {
      await backend.deploymentUnavailable(NAMESPACE, DEPLOYMENT_NAME);
      const blocked = await waitForCondition(cluster(), HELLO, 'Ready', 'False').catch(async (error) => {
        const ready = conditionOf(await cluster().get(API, 'Greeter', NAMESPACE, 'hello'), 'Ready');
        throw new Error(`${String(error)}; the instance's Ready is ${JSON.stringify(ready)}`);
      });
      expect(conditionOf(blocked, 'Ready')).toEqual({
        type: 'Ready',
        status: 'False',
        reason: 'CONDITIONSNOTOK',
        message: `DeploymentReady=False for ${DEPLOYMENT}: MinimumReplicasUnavailable: Deployment does not have minimum availability.`,
      });
    });
  });

  describe(`a steady state (${on})`, () => {
    it('writes nothing: an edit that changes no child is reconciled without a write', async () => {
      const before = await reconcileCount(backend.controller.metrics, REGISTRATION);
      await sleep(300);
      backend.serverWrites?.mark();
      const requestsBefore = await requestsByMethod(backend.controller);
      const edited = await cluster().edit(HELLO, (current) => ({
        ...current,
        metadata: { ...current.metadata, labels: { touched: 'yes' } },
      }));
      await cluster().waitFor(
        'a reconcile of the touched instance',
        async () => (await reconcileCount(backend.controller.metrics, REGISTRATION)) > before,
      );
      await sleep(300);
      // The controller sent no PUT, PATCH or DELETE, and the instance is as the edit left it. (POSTs
      // are left out: on a shared control plane the process also asks access reviews and sends
      // Events for other files' registrations.)
      const sent = countsSince(requestsBefore, await requestsByMethod(backend.controller));
      expect(Object.keys(sent).filter((method) => !['GET', 'POST'].includes(method))).toEqual([]);
      expect((await cluster().get(API, 'Greeter', NAMESPACE, 'hello'))?.metadata.resourceVersion).toBe(
        edited.metadata.resourceVersion,
      );
      // In memory, the server's own log: the test's edit is the only write, POSTs included.
      if (backend.serverWrites)
        expect(backend.serverWrites.since()).toEqual([
          { method: 'PUT', path: `/apis/${API}/namespaces/${NAMESPACE}/greeters/hello` },
        ]);
    });
  });

  describe(`a deleted registration (${on})`, () => {
    it('stops its controller and says so', async () => {
      await cluster().remove(registrationObject(REGISTRATION, {}));
      await cluster().waitFor('the stop line', async () =>
        infoLines('instance controller stopped').length > 0 ? true : undefined,
      );
      expect(infoLines('instance controller stopped').map(({ registration }) => registration)).toEqual([
        REGISTRATION,
      ]);
    });
  });

  function instanceObject(): KubeObject {
    return { apiVersion: API, kind: 'Greeter', metadata: { namespace: NAMESPACE, name: 'hello' } };
  }
}
