/**
 * A phase is one row of the phase table (src/phases.ts) and what `npm run generate` writes from it:
 * the request validators take it, the SDK's dispatch calls the handler its row names and reads the
 * result as the row says, and the client sends and reads its calls as the row says. Two throw-away
 * rows, one of each kind, stand for a phase the spec could add. The generated validators are
 * replaced here by the ones rendered with the rows added, as `npm run generate` would write them.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderBodyValidators } from '../scripts/render-body-validators.ts';
import { registerHookPhase, type HookPhaseDescriptor } from '../src/phases.ts';
import type { HookCall, HookRequest } from '../src/types.ts';
import { deployment, deploymentManagedKinds, instance } from './support/fixtures.ts';

/** A deletion gate, as finalize is. */
const ARCHIVE: HookPhaseDescriptor = {
  phase: 'archive',
  capabilities: ['archive'],
  calledAt: 'deletion',
  handler: 'archive',
  answersWithChanges: false,
  failurePolicyApplies: false,
  section: 'hooks-v1.md §7',
};
/** A phase answered with changes, as pre-reconcile is. */
const ENRICH: HookPhaseDescriptor = {
  phase: 'enrich',
  capabilities: ['enrich'],
  calledAt: 'reconcile',
  handler: 'enrichChildren',
  answersWithChanges: true,
  failurePolicyApplies: true,
  section: 'hooks-v1.md §3–§5',
};

const GENERATED = '../src/body-validators.generated.ts';
let unregister: (() => void)[] = [];
let regenerated: string;

beforeAll(async () => {
  unregister = [registerHookPhase(ARCHIVE), registerHookPhase(ENRICH)];
  const dir = await mkdtemp(join(tmpdir(), 'hooks-v1-phase-table-'));
  regenerated = join(dir, 'body-validators.generated.mjs');
  await writeFile(regenerated, renderBodyValidators());
  vi.doMock(GENERATED, () => import(pathToFileURL(regenerated).href));
});
afterAll(() => {
  for (const undo of unregister) undo();
  vi.doUnmock(GENERATED);
});

const body = (phase: string) => JSON.stringify({ formFactor: 'deployment', phase, object: instance });
const call = (phase: string): HookCall => ({
  url: 'http://hook/',
  timeoutMs: 1000,
  phase: phase as HookCall['phase'],
  formFactor: 'deployment',
  object: instance,
  children: { deployment },
  managedKinds: deploymentManagedKinds,
  instanceNamespace: 'shop',
});

describe('a phase added to the phase table', () => {
  it('is taken by the request validators generated from the rows', async () => {
    const { requestWithStringFormFactor } = (await import(pathToFileURL(regenerated).href)) as {
      requestWithStringFormFactor: (value: unknown) => boolean;
    };
    expect(requestWithStringFormFactor(JSON.parse(body('archive')))).toBe(true);
    expect(requestWithStringFormFactor(JSON.parse(body('enrich')))).toBe(true);
    expect(requestWithStringFormFactor(JSON.parse(body('unknown')))).toBe(false);
  });

  it('is dispatched by the SDK to the handler its row names, the answer read as the row says', async () => {
    const { dispatchHookRequest } = await import('../src/dispatch.ts');
    const seen: string[] = [];
    const handlers = {
      preReconcile: () => void seen.push('preReconcile'),
      finalize: () => void seen.push('finalize'),
      archive: (request: HookRequest) => {
        seen.push(`archive ${request.phase}`);
        // A gate's result is not an answer: only its consent counts.
        return { object: { status: { archived: true } } };
      },
      enrichChildren: (request: HookRequest) => {
        seen.push(`enrichChildren ${request.phase}`);
        return { object: { status: { enriched: true } } };
      },
    };
    const options = { ...handlers, path: '/', formFactorFormat: 'string' as const };
    const dispatch = (phase: string) =>
      dispatchHookRequest({ method: 'POST', pathname: '/', body: body(phase) }, options);

    expect(await dispatch('archive')).toEqual({ status: 204, headers: {} });
    expect(await dispatch('enrich')).toEqual({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: '{"object":{"status":{"enriched":true}}}',
    });
    expect(seen).toEqual(['archive archive', 'enrichChildren enrich']);
    expect((await dispatch('unknown')).status).toBe(400);
  });

  it('is sent the children and read for changes only when its row answers with changes', async () => {
    const { buildRequestBody } = await import('../src/request-body.ts');
    const { interpretOutcome } = await import('../src/client.ts');
    expect(buildRequestBody(call('enrich'), 'string').children).toEqual({ deployment });
    expect(buildRequestBody(call('archive'), 'string')).not.toHaveProperty('children');

    const answer = {
      kind: 'response' as const,
      status: 200,
      headers: {},
      body: '{"object":{"status":{"a":1}}}',
    };
    expect(interpretOutcome(answer, call('archive'), 0)).toEqual({ ok: true });
    expect(interpretOutcome(answer, call('enrich'), 0)).toEqual({ ok: true, object: { status: { a: 1 } } });
  });
});
