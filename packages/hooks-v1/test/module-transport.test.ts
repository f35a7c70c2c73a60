/**
 * In-process hooks (docs/spec/hooks-v1.md §10): the same handlers answer the same call with the same
 * HookResult whether the SDK serves them over HTTP or the client calls them in its process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AnswerBudget,
  createHookClient,
  createModuleTransport,
  HookError,
  moduleHookUrl,
  startHookServer,
  type HookCall,
  type HookClient,
  type HookHandlers,
  type HookResult,
  type HookServer,
} from '../src/index.ts';
import { deployment, finalizeCall, preReconcileCall, service } from './support/fixtures.ts';

let client: HookClient | undefined;
let server: HookServer | undefined;

afterEach(async () => {
  client?.close();
  await server?.close();
  client = server = undefined;
});

const now = Date.parse('2025-03-02T10:00:00Z');

type Transport = 'http' | 'module';

/** The call made to `handlers` over `transport`; `make` turns the hook URL into the call. */
async function callThrough(
  transport: Transport,
  handlers: HookHandlers,
  make: (url: string) => HookCall = (url) => preReconcileCall(url),
): Promise<HookResult> {
  if (transport === 'http') {
    server = await startHookServer(handlers);
    client = createHookClient({ now: () => now });
    return client.call(make(server.url));
  }
  client = createHookClient({ now: () => now, modules: new Map([['acme-hook', handlers]]) });
  return client.call(make(moduleHookUrl('acme-hook')));
}

const transports: Transport[] = ['http', 'module'];

describe.each(transports)('the same handlers over %s', (transport) => {
  it('changes children and status (§5)', async () => {
    const changed = { ...deployment, spec: { replicas: 5 } };
    const result = await callThrough(transport, {
      preReconcile: (request) => ({
        object: { status: { observedGeneration: 2, phase: 'checked' } },
        children: { ...request.children, deployment: changed },
      }),
    });
    expect(result).toEqual({
      ok: true,
      object: { status: { observedGeneration: 2, phase: 'checked' } },
      children: { deployment: changed, service },
    });
  });

  it('hands the handler the request as §3 defines it', async () => {
    const seen: unknown[] = [];
    await callThrough(transport, {
      preReconcile: (request) => {
        seen.push(request);
      },
    });
    const { managedFields: _managed, ...metadata } = preReconcileCall('x').object.metadata;
    expect(seen).toEqual([
      {
        formFactor: 'deployment',
        phase: 'pre-reconcile',
        object: { ...preReconcileCall('x').object, metadata },
        children: { deployment, service },
      },
    ]);
  });

  it.each<[string, HookError, Partial<HookResult>]>([
    [
      'permanent',
      new HookError('bad spec', { status: 422, permanent: true }),
      { permanent: true, transient: false, status: 422 },
    ],
    ['transient', new HookError('busy', { status: 500 }), { status: 500 }],
    ['continue', new HookError('metrics down', { continue: true }), { continue: true, status: 500 }],
    [
      'Retry-After',
      new HookError('quota', { status: 503, permanent: true, retryAfterSeconds: 30 }),
      { status: 503, retryAfterMs: 30_000 },
    ],
  ])('a %s HookError is the §6 error answer', async (_name, error, expected) => {
    const result = await callThrough(transport, {
      preReconcile: () => {
        throw error;
      },
    });
    expect(result).toEqual({
      ok: false,
      message: `pre-reconcile hook: HTTP ${error.status}: ${error.message}`,
      permanent: false,
      continue: false,
      transient: true,
      outcome: 'error-answer',
      ...expected,
    });
  });

  it('any other throw is a 500 with its message', async () => {
    const result = await callThrough(transport, {
      preReconcile: () => {
        throw new TypeError('cannot read x of undefined');
      },
    });
    expect(result).toMatchObject({
      ok: false,
      status: 500,
      transient: true,
      outcome: 'error-answer',
      message: 'pre-reconcile hook: HTTP 500: cannot read x of undefined',
    });
  });

  it('validates the children the handler answers exactly as an HTTP answer (§5.3)', async () => {
    const result = await callThrough(transport, {
      preReconcile: () => ({ children: { deployment } }),
    });
    expect(result).toEqual({
      ok: false,
      message: 'pre-reconcile hook: invalid response: children.service: missing',
      permanent: false,
      continue: false,
      transient: true,
      outcome: 'invalid-answer',
      status: 200,
    });
  });

  it('resolves as a timeout when an asynchronous handler never settles, and aborts its signal', async () => {
    const aborted: string[] = [];
    const result = await callThrough(
      transport,
      {
        preReconcile: (_request, context) =>
          new Promise(() => {
            context?.signal.addEventListener('abort', () => aborted.push('aborted'));
          }),
      },
      (url) => preReconcileCall(url, { timeoutMs: 200 }),
    );
    const url = transport === 'http' ? server?.url : moduleHookUrl('acme-hook');
    expect(result).toEqual({
      ok: false,
      message: `pre-reconcile hook: request to ${url} timed out after 0.2s`,
      permanent: false,
      continue: false,
      transient: true,
      outcome: 'timeout',
    });
    await expect.poll(() => aborted).toEqual(['aborted']);
  });

  it('gates finalize: returning lets go, a HookError holds', async () => {
    expect(await callThrough(transport, { finalize: () => undefined }, finalizeCall)).toEqual({ ok: true });
    client?.close();
    await server?.close();
    const held = await callThrough(
      transport,
      {
        finalize: () => {
          throw new HookError('waiting for drain', { status: 409 });
        },
      },
      finalizeCall,
    );
    expect(held).toMatchObject({
      ok: false,
      status: 409,
      message: 'finalize hook: HTTP 409: waiting for drain',
    });
  });
});

describe('in-process calls only', () => {
  it('are cut by cutCalls, and the handler hears it', async () => {
    const aborted: boolean[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    client = createHookClient({
      modules: new Map([
        [
          'slow',
          {
            preReconcile: (_request, context) =>
              new Promise(() => {
                context?.signal.addEventListener('abort', () => aborted.push(true));
                started();
              }),
          },
        ],
      ]),
    });
    const call = client.call(preReconcileCall(moduleHookUrl('slow'), { timeoutMs: 60_000 }));
    await running;
    client.cutCalls();
    await expect(call).rejects.toMatchObject({
      name: 'AbortError',
      message: 'the pre-reconcile call to module:slow was cut: the controller is stopping',
    });
    expect(aborted).toEqual([true]);
  });

  it('fail as a transport error when the module is not loaded', async () => {
    client = createHookClient({ modules: new Map() });
    expect(await client.call(preReconcileCall(moduleHookUrl('gone')))).toEqual({
      ok: false,
      message: 'pre-reconcile hook: request to module:gone failed: hook module "gone" is not loaded',
      permanent: false,
      continue: false,
      transient: true,
      outcome: 'transport-error',
    });
  });

  it('hold an answer over the size limit as a transport error', async () => {
    const transport = createModuleTransport(
      { preReconcile: () => ({ object: { status: { filler: 'x'.repeat(2000) } } }) },
      'string',
      { maxResponseBytes: 1000 },
    );
    const payload = JSON.stringify({
      formFactor: 'deployment',
      phase: 'pre-reconcile',
      object: preReconcileCall('x').object,
      children: {},
    });
    expect(await transport(payload, { timeoutMs: 1000 })).toEqual({
      kind: 'failed',
      cause: 'response body larger than 1000 bytes',
    });
  });

  it('pay for their answer in the answer budget', async () => {
    const answerBudget = new AnswerBudget({ totalBytes: 64 * 1024, smallAnswerBytes: 1024 });
    client = createHookClient({
      answerBudget,
      maxResponseBytes: 1024 * 1024,
      modules: new Map([
        ['big', { preReconcile: () => ({ object: { status: { filler: 'x'.repeat(200_000) } } }) }],
      ]),
    });
    expect(await client.call(preReconcileCall(moduleHookUrl('big')))).toMatchObject({
      ok: false,
      transient: true,
      outcome: 'transport-error',
      message: expect.stringMatching(/^pre-reconcile hook: request to module:big failed: /),
    });
  });

  it('answer in the compatibility form when the client sends it (§3)', async () => {
    const seen: string[] = [];
    client = createHookClient({
      formFactorFormat: 'object',
      modules: new Map([['form', { preReconcile: (request) => void seen.push(request.formFactor) }]]),
    });
    expect(await client.call(preReconcileCall(moduleHookUrl('form')))).toEqual({ ok: true });
    expect(seen).toEqual(['deployment']);
  });
});
