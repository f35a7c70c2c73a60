/**
 * Hook metrics after real hook calls (docs/operations/metrics.md): scoby_hook_calls_total by phase
 * and outcome, every series from 0, the ScobyHookFailures alert's selectors over what the controller
 * exposes, and scoby_instances_not_ready as instances turn Ready and not.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { HookError, startHookServer, type HookServer } from '@scoby/hooks-v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { conditionOf } from '../support/scoby.ts';
import {
  hookedRegistration,
  instanceWhere,
  mergePatch,
  registrationReady,
} from '../support/hooks-fixtures.ts';

const METRICS_DOC = fileURLToPath(new URL('../../../../docs/operations/metrics.md', import.meta.url));
const GROUP = 'counted.example.com';
const API = `${GROUP}/v1`;
const REGISTRATION = 'counters';

let cluster: TestCluster;
let hook: HookServer;
/** Instances the hook refuses with a 503. */
const refused = new Set<string>();

beforeAll(async () => {
  cluster = await startTestCluster();
  hook = await startHookServer({
    path: '/v1',
    preReconcile: (request) => {
      if (refused.has(request.object.metadata.name ?? ''))
        throw new HookError('quota service down', { status: 503 });
      return {};
    },
  });
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  await cluster.apply(crdFor({ group: GROUP, kind: 'Counter', plural: REGISTRATION }));
  await cluster.apply(
    hookedRegistration(REGISTRATION, `${REGISTRATION}.${GROUP}`, {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'] },
    }),
  );
  await registrationReady(cluster, REGISTRATION);
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

/** The controller's exposition, as /metrics serves it. */
const exposition = (): Promise<string> => cluster.controller.metrics.registry.metrics();

/** The value of the series `name{labels}` in `text`, labels in the order the code writes them. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const notReady = async () =>
  sample(await exposition(), 'scoby_instances_not_ready', `registration="${REGISTRATION}"`);

const counter = (name: string) =>
  instanceWhere(
    cluster,
    API,
    'Counter',
    'shop',
    name,
    'Ready',
    (object) => conditionOf(object, 'Ready')?.status === 'True',
  );

describe('hook metrics', () => {
  it('count real calls by phase and outcome, and the not-Ready instances of the registration', async () => {
    await cluster.waitFor('the gauge of a synced registration', async () =>
      (await notReady()) === 0 ? true : undefined,
    );
    refused.add('blocked');
    await cluster.apply({
      apiVersion: API,
      kind: 'Counter',
      metadata: { name: 'plain', namespace: 'shop' },
      spec: {},
    });
    await cluster.apply({
      apiVersion: API,
      kind: 'Counter',
      metadata: { name: 'blocked', namespace: 'shop' },
      spec: {},
    });
    await counter('plain');
    await instanceWhere(
      cluster,
      API,
      'Counter',
      'shop',
      'blocked',
      'Ready=False/HookFailed',
      (object) => conditionOf(object, 'Ready')?.reason === 'HookFailed',
    );
    expect(await notReady()).toBe(1);

    const text = await exposition();
    const calls = text
      .split('\n')
      .filter((line) => line.startsWith(`scoby_hook_calls_total{controller="${REGISTRATION}",`));
    expect(calls.map((line) => line.slice(0, line.lastIndexOf(' ')))).toEqual(
      ['pre-reconcile', 'finalize'].flatMap((phase) =>
        ['success', 'error-answer', 'invalid-answer', 'timeout', 'transport-error'].map(
          (outcome) =>
            `scoby_hook_calls_total{controller="${REGISTRATION}",phase="${phase}",outcome="${outcome}"}`,
        ),
      ),
    );
    const value = (phase: string, outcome: string) =>
      sample(
        text,
        'scoby_hook_calls_total',
        `controller="${REGISTRATION}",phase="${phase}",outcome="${outcome}"`,
      );
    expect(value('pre-reconcile', 'success')).toBeGreaterThanOrEqual(1);
    expect(value('pre-reconcile', 'error-answer')).toBeGreaterThanOrEqual(1);
    for (const outcome of ['invalid-answer', 'timeout', 'transport-error'])
      expect(value('pre-reconcile', outcome)).toBe(0);
    expect(value('finalize', 'success')).toBe(0);
    expect(
      sample(text, 'scoby_hook_duration_seconds_count', `controller="${REGISTRATION}",phase="pre-reconcile"`),
    ).toBe(value('pre-reconcile', 'success')! + value('pre-reconcile', 'error-answer')!);

    refused.delete('blocked');
    await mergePatch(
      cluster,
      { apiVersion: API, kind: 'Counter', namespace: 'shop', name: 'blocked' },
      { metadata: { annotations: { retry: 'now' } } },
    );
    await counter('blocked');
    expect(await notReady()).toBe(0);
  });

  it("keep the documented ScobyHookFailures alert's selectors on the exposed series", async () => {
    const doc = await readFile(METRICS_DOC, 'utf8');
    const alert = /- alert: ScobyHookFailures\n[\s\S]*?expr: \|\n([\s\S]*?)\n\s+for:/.exec(doc)?.[1];
    expect(alert).toBeDefined();
    const selectors = [...alert!.matchAll(/rate\((\w+)(?:\{([^}]*)\})?\[/g)].map(([, name, matchers]) => ({
      name: name!,
      matchers: [...(matchers ?? '').matchAll(/(\w+)(!=|=)"([^"]*)"/g)].map(([, label, op, value]) => ({
        label: label!,
        op,
        value,
      })),
    }));
    expect(selectors.map(({ name }) => name)).toEqual(['scoby_hook_calls_total', 'scoby_hook_calls_total']);
    // The alert's ratio over the counters' totals (what its rates divide, over a window from start).
    const metric = await cluster.controller.metrics.registry.getSingleMetric('scoby_hook_calls_total')!.get();
    const series = metric.values.filter(({ labels }) => labels.controller === REGISTRATION);
    const total = ({ matchers }: (typeof selectors)[number]) =>
      series
        .filter(({ labels }) =>
          matchers.every(({ label, op, value }) =>
            op === '=' ? labels[label] === value : labels[label] !== value,
          ),
        )
        .reduce((sum, { value }) => sum + value, 0);
    const [failed, all] = selectors.map(total);
    const byOutcome = (keep: (outcome: string) => boolean) =>
      series.filter(({ labels }) => keep(String(labels.outcome))).reduce((sum, { value }) => sum + value, 0);
    expect(failed).toBe(byOutcome((outcome) => outcome === 'error-answer'));
    expect(failed).toBeGreaterThan(0);
    expect(all).toBe(byOutcome(() => true));
  });
});
