/**
 * The tables of docs/spec/children-and-status.md against the code: §4.1 child names, §8.3 form-factor
 * conditions, §8.4 Ready. Each row of the spec is one case, read from the spec itself.
 */
import { describe, expect, it } from 'vitest';
import { childName, subdomainChildName } from '@scoby/formfactor';
import { deploymentReady, serviceReady } from '@scoby/formfactor-deployment';
import { knativeServiceReady } from '@scoby/formfactor-ksvc';
import type { Condition, KubeObject } from '@scoby/kube-objects';
import { conditionSubjects, readyFrom } from '../../src/status/conditions.ts';
import { codeSpans, codeValue, section, specText, tableRows } from './spec-tables.ts';

const SPEC = specText('children-and-status.md');

/** `<type>=<status>/<reason>/<message>`, the notation of §8.3 and §8.4. */
function parseCondition(text: string): { type: string; status: string; reason: string; message: string } {
  const equals = text.indexOf('=');
  const first = text.indexOf('/', equals);
  const second = first < 0 ? -1 : text.indexOf('/', first + 1);
  return {
    type: text.slice(0, equals),
    status: text.slice(equals + 1, first < 0 ? undefined : first),
    reason: first < 0 ? '' : text.slice(first + 1, second < 0 ? undefined : second),
    message: second < 0 ? '' : text.slice(second + 1),
  };
}

describe('§4.1 child names', () => {
  const rows = tableRows(section(SPEC, '### 4.1'));

  it('has the examples', () => {
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });
  for (const [registration = '', instance = '', name = '', deploymentName = ''] of rows) {
    it(`${codeValue(registration)} + ${codeValue(instance)}`, () => {
      expect(childName(codeValue(registration), codeValue(instance))).toBe(codeValue(name));
      expect(subdomainChildName(codeValue(registration), codeValue(instance))).toBe(
        codeValue(deploymentName),
      );
    });
  }
});

const READERS: Record<string, (child: KubeObject | undefined) => unknown> = {
  DeploymentReady: deploymentReady,
  ServiceReady: serviceReady,
  KnativeServiceReady: knativeServiceReady,
};

/** The observed child a §8.3 row describes: `none`, a child without the condition, or one with it. */
function observedChild(cell: string): KubeObject | undefined {
  if (cell === 'none') return undefined;
  const child: KubeObject = { apiVersion: 'v1', kind: 'Child', metadata: { name: 'child' } };
  const [notation] = codeSpans(cell);
  if (notation === undefined || !notation.includes('=')) return child;
  return { ...child, status: { conditions: [parseCondition(notation)] } };
}

describe('§8.3 form-factor conditions', () => {
  const rows = tableRows(section(SPEC, '### 8.3'));

  it('has a row for every case', () => {
    expect(rows.length).toBeGreaterThanOrEqual(14);
  });
  for (const [condition = '', observed = '', status = '', reason = '', message = ''] of rows) {
    it(`${codeValue(condition)} from ${observed}`, () => {
      const read = READERS[codeValue(condition)];
      expect(read).toBeDefined();
      expect(read!(observedChild(observed))).toEqual({
        status: codeValue(status),
        reason: codeValue(reason),
        message: codeValue(message),
      });
    });
  }
});

/** The children of the rows of §8.4: a Deployment and a Service, or a Knative Service, `shop/mailer-orders`. */
function childrenFor(types: readonly string[]): KubeObject[] {
  const metadata = { namespace: 'shop', name: 'mailer-orders' };
  return types.includes('KnativeServiceReady')
    ? [{ apiVersion: 'serving.knative.dev/v1', kind: 'Service', metadata }]
    : [
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata },
        { apiVersion: 'v1', kind: 'Service', metadata },
      ];
}

describe('§8.4 Ready', () => {
  const rows = tableRows(section(SPEC, '### 8.4'));

  it('has the examples', () => {
    expect(rows.length).toBeGreaterThanOrEqual(6);
  });
  for (const [conditions = '', status = '', reason = '', message = ''] of rows) {
    it(conditions, () => {
      const others: Condition[] = codeSpans(conditions).map((notation) => ({
        ...(parseCondition(notation) as Condition),
        lastTransitionTime: '',
      }));
      const types = others.map((condition) => condition.type);
      const subjects = conditionSubjects(childrenFor(types), [...types, 'Ready']);
      expect(readyFrom(others, subjects)).toEqual({
        status: codeValue(status),
        reason: codeValue(reason),
        message: codeValue(message),
      });
    });
  }
});
