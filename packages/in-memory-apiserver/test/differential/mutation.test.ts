/**
 * The harness must find a validation the subject lost: with its env name check switched off while it
 * answers (an injected mutation), the in-memory server accepts what the reference refuses, and the
 * harness fails with a shrunk reproduction of one or two requests.
 */
import { describe, expect, it, vi } from 'vitest';
import { checkDifferential, freshInMemory } from './differential.ts';

const mutation = vi.hoisted(() => ({ active: false }));

vi.mock('../../src/validation/pod-env.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/validation/pod-env.ts')>();
  return {
    ...actual,
    envCauses: (env: unknown, path: string) => (mutation.active ? [] : actual.envCauses(env, path)),
  };
});

async function weakened<T>(send: () => Promise<T>): Promise<T> {
  mutation.active = true;
  try {
    return await send();
  } finally {
    mutation.active = false;
  }
}

describe('the differential harness against a weakened in-memory server', () => {
  it('finds the env name validation gone and shrinks the sequence to the request that shows it', async () => {
    const run = checkDifferential({
      seed: 7,
      runs: 200,
      maxLength: 25,
      reference: freshInMemory(),
      aroundSubject: weakened,
    });
    const error = await run.then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    expect(error).toBeDefined();
    const reproduction = String((error as Error & { cause?: Error }).cause?.message ?? error?.message);
    console.log(reproduction);
    expect(reproduction).toMatch(/class (create|update|patch-apply):deployments:invalid-value/);
    const requests = reproduction.split('\n').filter((line) => /^[ →] \d+\. /.test(line));
    expect(requests.length).toBeLessThanOrEqual(2);
    expect(requests.at(-1)).toMatch(/^→ /);
  }, 120_000);

  it('finds nothing while the mutation is off (the test above fails for the right reason)', async () => {
    const figures = await checkDifferential({ seed: 7, runs: 20, maxLength: 25, reference: freshInMemory() });
    expect(figures.requests).toBeGreaterThan(0);
  }, 120_000);
});
