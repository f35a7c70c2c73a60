import { describe, expect, it } from 'vitest';
import { literals, render } from './fixtures.ts';
import { expandLikeKubernetes } from './kubernetes-expansion.ts';

const SECRET_BACKED = { API_TOKEN: 's3cr3t' } as Record<string, string>;
const expand = (value: string): string => expandLikeKubernetes(value, (name) => SECRET_BACKED[name]);

describe('the Kubernetes expansion the tests model', () => {
  it.each([
    ['$(API_TOKEN)', 's3cr3t'],
    ['$$(API_TOKEN)', '$(API_TOKEN)'],
    ['$$$(API_TOKEN)', '$s3cr3t'],
    ['$(UNKNOWN)', '$(UNKNOWN)'],
    ['a$b$', 'a$b$'],
    ['$(API_TOKEN', '$(API_TOKEN'],
    ['$$$$', '$$'],
  ])('%s becomes %s', (written, seen) => {
    expect(expand(written)).toBe(seen);
  });
});

describe('literal values (docs/spec/env.md §4)', () => {
  it('escapes every $ of a value rendered by default, and the source map keeps it unescaped', async () => {
    const spec = {
      greeting: '$(API_TOKEN)',
      price: 'US$5 or $$',
      tags: ['$(API_TOKEN)', 'plain'],
      rules: [{ match: '$(API_TOKEN)' }],
      plain: 'no dollar',
    };
    const result = await render(spec);
    expect(literals(result)).toEqual([
      'GREETING=$$(API_TOKEN)',
      'PLAIN=no dollar',
      'PRICE=US$$5 or $$$$',
      'RULES=[{"match":"$$(API_TOKEN)"}]',
      'TAGS=$$(API_TOKEN),plain',
    ]);
    expect(result.env.map((env) => expand(env.value ?? ''))).toEqual([
      '$(API_TOKEN)',
      'no dollar',
      'US$5 or $$',
      '[{"match":"$(API_TOKEN)"}]',
      '$(API_TOKEN),plain',
    ]);
    expect(result.sourceMap).toEqual({
      'spec.greeting': '$(API_TOKEN)',
      'spec.plain': 'no dollar',
      'spec.price': 'US$5 or $$',
      'spec.rules': '[{"match":"$(API_TOKEN)"}]',
      'spec.tags': '$(API_TOKEN),plain',
    });
  });

  it('escapes values of toEnv entries, objects as JSON and resolved addresses alike', async () => {
    const result = await render(
      {
        token: '$(API_TOKEN)',
        policy: { header: '$(API_TOKEN)' },
        sink: { uri: 'https://collector.example/$(API_TOKEN)' },
      },
      {
        fromSpec: {
          toEnv: [
            { path: 'spec.token', name: 'COPIED' },
            { path: 'spec.policy', name: 'POLICY' },
            { path: 'spec.sink', name: 'K_SINK', valueFrom: { builtInFunc: { name: 'resolveAddress' } } },
          ],
        },
      },
      {
        addresses: {
          '{"uri":"https://collector.example/$(API_TOKEN)"}': {
            ok: true,
            url: 'https://collector.example/$(API_TOKEN)',
          },
        },
      },
    );
    expect(literals(result)).toEqual([
      'COPIED=$$(API_TOKEN)',
      'K_SINK=https://collector.example/$$(API_TOKEN)',
      'POLICY={"header":"$$(API_TOKEN)"}',
    ]);
    expect(result.sourceMap).toEqual({
      'spec.policy': '{"header":"$(API_TOKEN)"}',
      'spec.sink': 'https://collector.example/$(API_TOKEN)',
      'spec.token': '$(API_TOKEN)',
    });
  });

  it('passes values written in the registration unchanged, so they keep expansion', async () => {
    const result = await render(
      {},
      {
        fromSpec: {
          toEnv: [{ path: 'spec.auth', name: 'AUTH_HEADER', default: { value: 'Bearer $(API_TOKEN)' } }],
        },
        add: {
          toEnv: [
            { name: 'API_TOKEN', valueFrom: { secret: { name: 'api', key: 'token' } } },
            { name: 'TOKEN_COPY', value: '$(API_TOKEN)' },
            { name: 'FLAGS', valueFromControllerConfigMap: { name: 'scoby-flags', key: 'flags' } },
          ],
        },
      },
      { configMaps: { 'scoby-flags': { flags: 'token=$(API_TOKEN)' } } },
    );
    expect(result.env).toEqual([
      { name: 'API_TOKEN', valueFrom: { secretKeyRef: { name: 'api', key: 'token' } } },
      { name: 'AUTH_HEADER', value: 'Bearer $(API_TOKEN)' },
      { name: 'FLAGS', value: 'token=$(API_TOKEN)' },
      { name: 'TOKEN_COPY', value: '$(API_TOKEN)' },
    ]);
    expect(result.sourceMap).toEqual({ 'spec.auth': 'Bearer $(API_TOKEN)' });
  });
});
