/** The example hook ships both ways: its module export answers exactly as its HTTP server does. */
import { createHookClient, moduleHookUrl, type HookClient, type HookServer } from '@scoby/hooks-v1';
import { afterEach, describe, expect, it } from 'vitest';
import { createExampleHook } from '../src/index.ts';
import exampleModule from '../src/module.ts';
import { call } from './fixtures.ts';

let hook: HookServer | undefined;
let client: HookClient | undefined;

afterEach(async () => {
  client?.close();
  await hook?.close();
  hook = client = undefined;
});

describe('@scoby/example-hook/module', () => {
  it.each(['pre-reconcile', 'finalize'] as const)('answers %s as the HTTP server does', async (phase) => {
    hook = await createExampleHook();
    client = createHookClient({ modules: new Map([['@scoby/example-hook/module', exampleModule]]) });
    const overHttp = await client.call(call(hook.url, phase));
    const inProcess = await client.call(call(moduleHookUrl('@scoby/example-hook/module'), phase));
    expect(inProcess).toEqual(overHttp);
    expect(inProcess.ok).toBe(true);
  });
});
