/**
 * The order server-side apply gives a keyed list (a container's env): since Kubernetes 1.22 the
 * applied order wins over the stored one (structured-merge-diff 4.2), and items only another manager
 * set keep their place among the applied ones. Env order matters: $(VAR) sees only earlier variables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, freshNamespace, rawRequest, type Target } from './harness.ts';

let target: Target;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  namespace = await freshNamespace(target);
});
afterAll(() => target.stop());

const LABELS = { app: 'ordered' };

async function applyEnv(name: string, manager: string, env: string[], full = true): Promise<string[]> {
  const container = { name: 'app', env: env.map((variable) => ({ name: variable, value: variable })) };
  const spec = full
    ? {
        selector: { matchLabels: LABELS },
        template: { metadata: { labels: LABELS }, spec: { containers: [{ ...container, image: 'app:1' }] } },
      }
    : { template: { spec: { containers: [container] } } };
  const reply = await rawRequest(
    target,
    'PATCH',
    `/apis/apps/v1/namespaces/${namespace}/deployments/${name}?fieldManager=${manager}&force=true`,
    {
      contentType: 'application/apply-patch+yaml',
      text: JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec }),
    },
  );
  expect(reply.status, JSON.stringify(reply.json)).toBeLessThan(300);
  const applied = reply.json as {
    spec: { template: { spec: { containers: { env: { name: string }[] }[] } } };
  };
  return applied.spec.template.spec.containers[0]!.env.map((variable) => variable.name);
}

describe('server-side apply of a keyed list', () => {
  it('puts an added item where the applied list has it, not at the end', async () => {
    await applyEnv('added', 'owner', ['FLAGS', 'NAME', 'OTHER_MODE', 'POD']);
    expect(await applyEnv('added', 'owner', ['FLAGS', 'MODE', 'NAME', 'POD'])).toEqual([
      'FLAGS',
      'MODE',
      'NAME',
      'POD',
    ]);
  });

  it('reorders the stored items as the applied list orders them', async () => {
    await applyEnv('reordered', 'owner', ['A', 'B', 'C']);
    expect(await applyEnv('reordered', 'owner', ['C', 'A', 'B'])).toEqual(['C', 'A', 'B']);
  });

  it('keeps an item only another manager set after the applied item it followed', async () => {
    await applyEnv('shared', 'owner', ['A', 'B']);
    expect(await applyEnv('shared', 'other', ['X'], false)).toEqual(['A', 'B', 'X']);
    expect(await applyEnv('shared', 'owner', ['B', 'A'])).toEqual(['B', 'X', 'A']);
  });
});
