/**
 * The harness must find a validation the subject lost: with its env name check (or its Service
 * validation) switched off while it answers (an injected mutation), the in-memory server accepts what
 * the reference refuses, and the harness fails with a shrunk reproduction of a few requests.
 */
import { describe, expect, it, vi } from 'vitest';
import { checkDifferential, freshInMemory } from './differential.ts';

const mutation = vi.hoisted(() => ({ active: false, target: 'env' as 'env' | 'service' }));

vi.mock('../../src/validation/pod-env.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/validation/pod-env.ts')>();
  return {
    ...actual,
    envCauses: (env: unknown, path: string) =>
      mutation.active && mutation.target === 'env' ? [] : actual.envCauses(env, path),
  };
});

vi.mock('../../src/validation/service.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/validation/service.ts')>();
  return {
    ...actual,
    validateService: (object: Parameters<typeof actual.validateService>[0]) =>
      mutation.active && mutation.target === 'service' ? [] : actual.validateService(object),
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
  it('finds the Service validation gone and shrinks the sequence to the request that shows it', async () => {
    mutation.target = 'service';
    try {
      const error = await checkDifferential({
        seed: 11,
        runs: 200,
        maxLength: 25,
        reference: freshInMemory(),
        aroundSubject: weakened,
      }).then(
        () => undefined,
        (failure: unknown) => failure as Error,
      );
      expect(error).toBeDefined();
      const reproduction = String((error as Error & { cause?: Error }).cause?.message ?? error?.message);
      console.log(reproduction);
      expect(reproduction).toMatch(/class [a-z-]+:services:(invalid-value|type-change|immutable-field|none)/);
      const requests = reproduction.split('\n').filter((line) => /^[ →] \d+\. /.test(line));
      expect(requests.length).toBeLessThanOrEqual(3);
    } finally {
      mutation.target = 'env';
    }
  }, 240_000);

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
