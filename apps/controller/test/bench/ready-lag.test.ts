/** The Ready lag (bench/ready-lag.ts): an instance's Ready=True less its own Deployment's Available=True. */
import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { formatLags, readyLags } from '../../bench/ready-lag.ts';

const condition = (type: string, status: string, at: string) => ({ type, status, lastTransitionTime: at });

function instance(name: string, uid: string, conditions: object[]): KubeObject {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Mailer',
    metadata: { namespace: 'bench', name, uid },
    status: { conditions },
  };
}

function deployment(owner: string, ownerUid: string, conditions: object[], controller = true): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      namespace: 'bench',
      name: `mailer-${owner}`,
      ownerReferences: [
        { apiVersion: 'example.com/v1', kind: 'Mailer', name: owner, uid: ownerUid, controller },
      ],
    },
    status: { conditions },
  };
}

describe('readyLags', () => {
  it('pairs each Ready instance with the Deployment it controls, in the order the Deployments became Available', () => {
    const lags = readyLags(
      [
        instance('b', 'uid-b', [condition('Ready', 'True', '2026-01-01T00:00:09Z')]),
        instance('a', 'uid-a', [condition('Ready', 'True', '2026-01-01T00:07:00Z')]),
        instance('not-ready', 'uid-c', [condition('Ready', 'False', '2026-01-01T00:00:01Z')]),
        instance('not-available', 'uid-d', [condition('Ready', 'True', '2026-01-01T00:00:01Z')]),
        instance('not-controlled', 'uid-e', [condition('Ready', 'True', '2026-01-01T00:00:01Z')]),
      ],
      [
        deployment('a', 'uid-a', [
          condition('Progressing', 'True', '2026-01-01T00:00:00Z'),
          condition('Available', 'True', '2026-01-01T00:00:02Z'),
        ]),
        deployment('b', 'uid-b', [condition('Available', 'True', '2026-01-01T00:00:05Z')]),
        deployment('c', 'uid-c', [condition('Available', 'True', '2026-01-01T00:00:00Z')]),
        deployment('d', 'uid-d', [condition('Available', 'False', '2026-01-01T00:00:00Z')]),
        deployment('e', 'uid-e', [condition('Available', 'True', '2026-01-01T00:00:00Z')], false),
      ],
    );
    expect(lags.map(({ instance, lagSeconds }) => ({ instance, lagSeconds }))).toEqual([
      { instance: 'bench/a', lagSeconds: 418 },
      { instance: 'bench/b', lagSeconds: 4 },
    ]);
    expect(formatLags(lags)).toBe(
      '4 / 418 / 418 / 418 s (p50 / p90 / p99 / max of 2), first instance 418 s (bench/a)',
    );
    expect(formatLags([])).toBe('- / - / - / - s (p50 / p90 / p99 / max of 0)');
  });
});
