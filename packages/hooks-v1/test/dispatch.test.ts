import { describe, expect, it } from 'vitest';
import { dispatchHookRequest, HookError, type HookHandlers, type HookRequest } from '../src/index.ts';
import { deployment, instance, service } from './support/fixtures.ts';

const request = {
  formFactor: 'deployment',
  phase: 'pre-reconcile',
  object: instance,
  children: { deployment, service },
};
const finalizeRequest = { formFactor: 'deployment', phase: 'finalize', object: instance };
const json = { 'Content-Type': 'application/json' };

function dispatch(
  body: unknown,
  handlers: HookHandlers = {},
  overrides: { method?: string; pathname?: string } = {},
) {
  return dispatchHookRequest(
    {
      method: 'POST',
      pathname: '/v1',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...overrides,
    },
    { ...handlers, path: '/v1', formFactorFormat: 'string' },
  );
}

function errorBody(message: string, permanent = false, proceed = false): string {
  return JSON.stringify({ message, permanent, continue: proceed });
}

describe('handlers', () => {
  it('are called as methods of the object that holds them', async () => {
    const handlers = {
      greeting: 'hello',
      preReconcile(this: { greeting: string }) {
        return { object: { status: { greeting: this.greeting } } };
      },
    };
    expect(await dispatch(request, handlers)).toEqual({
      status: 200,
      headers: json,
      body: '{"object":{"status":{"greeting":"hello"}}}',
    });
  });
});

describe('routing and request validation', () => {
  it('answers 404 on other paths', async () => {
    expect(await dispatch(request, {}, { pathname: '/', method: 'GET' })).toEqual({
      status: 404,
      headers: json,
      body: errorBody('no hook at /; the hook path is /v1'),
    });
  });

  it('answers 405 to other methods', async () => {
    expect(await dispatch('', {}, { method: 'GET' })).toEqual({
      status: 405,
      headers: { ...json, Allow: 'POST' },
      body: errorBody('method GET is not allowed; use POST'),
    });
  });

  it('answers 400, permanent, to a body that is not JSON', async () => {
    expect(await dispatch('{"phase":')).toEqual({
      status: 400,
      headers: json,
      body: errorBody('invalid request: body is not valid JSON', true),
    });
  });

  it.each<[string, unknown, string]>([
    ['an array', [request], 'invalid request: body must be object'],
    ['no phase', { ...request, phase: undefined }, 'invalid request: phase is required'],
    [
      'an unknown phase',
      { ...request, phase: 'post-reconcile' },
      'invalid request: phase must be equal to one of the allowed values (pre-reconcile, finalize)',
    ],
    [
      'the object form of formFactor',
      { ...request, formFactor: { name: 'deployment' } },
      'invalid request: formFactor must be string',
    ],
    [
      'an object without kind',
      { ...request, object: { apiVersion: 'v1', metadata: {} } },
      'invalid request: object.kind is required',
    ],
    [
      'a child without metadata',
      { ...request, children: { 'a/b': { apiVersion: 'v1', kind: 'Service' } } },
      'invalid request: children.a/b.metadata is required',
    ],
  ])('answers 400, permanent, to a request with %s', async (_case, body, message) => {
    expect(await dispatch(body)).toEqual({ status: 400, headers: json, body: errorBody(message, true) });
  });

  it('accepts the object form of formFactor when configured, and hands the handler a string', async () => {
    const seen: HookRequest[] = [];
    const answer = await dispatchHookRequest(
      {
        method: 'POST',
        pathname: '/',
        body: JSON.stringify({ ...finalizeRequest, formFactor: { name: 'ksvc' } }),
      },
      { path: '/', formFactorFormat: 'object', finalize: (received) => void seen.push(received) },
    );
    expect(answer).toEqual({ status: 204, headers: {} });
    expect(seen).toEqual([{ ...finalizeRequest, formFactor: 'ksvc' }]);
  });
});

describe('handler results', () => {
  it('a phase without a handler is a 204', async () => {
    expect(await dispatch(request)).toEqual({ status: 204, headers: {} });
    expect(await dispatch(finalizeRequest)).toEqual({ status: 204, headers: {} });
  });

  it('hands the parsed request to the handler of its phase', async () => {
    const seen: string[] = [];
    const handlers: HookHandlers = {
      preReconcile: (received) =>
        void seen.push(`pre-reconcile ${received.formFactor} ${Object.keys(received.children ?? {})}`),
      finalize: async (received) => void seen.push(`finalize ${received.object.metadata.name}`),
    };
    await dispatch(request, handlers);
    await dispatch(finalizeRequest, handlers);
    expect(seen).toEqual(['pre-reconcile deployment deployment,service', 'finalize orders']);
  });

  it.each([[undefined], [null], [{}], [{ object: undefined }]])(
    'pre-reconcile result %j is a 204',
    async (result) => {
      expect(await dispatch(request, { preReconcile: () => result as never })).toEqual({
        status: 204,
        headers: {},
      });
    },
  );

  it('pre-reconcile object and children are answered with 200', async () => {
    const answer = { object: { status: { ok: 'yes' } }, children: { deployment } };
    expect(await dispatch(request, { preReconcile: async () => answer })).toEqual({
      status: 200,
      headers: json,
      body: JSON.stringify(answer),
    });
    expect(await dispatch(request, { preReconcile: () => ({ object: null }) })).toEqual({
      status: 200,
      headers: json,
      body: '{"object":null}',
    });
  });

  it('an invalid pre-reconcile result is a 500', async () => {
    const invalid = { object: { status: 'Ready' } } as never;
    expect(await dispatch(request, { preReconcile: () => invalid })).toEqual({
      status: 500,
      headers: json,
      body: errorBody('the hook handler returned an invalid answer: object.status must be object'),
    });
  });
});

describe('thrown errors', () => {
  it('a HookError keeps its status, permanent and continue', async () => {
    const refuse = () => {
      throw new HookError('waiting for condition CleanedUp', {
        status: 409,
        permanent: true,
        continue: true,
      });
    };
    expect(await dispatch(finalizeRequest, { finalize: refuse })).toEqual({
      status: 409,
      headers: json,
      body: errorBody('waiting for condition CleanedUp', true, true),
    });
  });

  it('a HookError defaults to 500, not permanent, no continue', async () => {
    const fail = async () => {
      throw new HookError('quota service unreachable');
    };
    expect(await dispatch(request, { preReconcile: fail })).toEqual({
      status: 500,
      headers: json,
      body: errorBody('quota service unreachable'),
    });
  });

  it('a HookError with retryAfterSeconds sends Retry-After', async () => {
    const busy = () => {
      throw new HookError('busy', { status: 503, retryAfterSeconds: 30 });
    };
    expect(await dispatch(request, { preReconcile: busy })).toEqual({
      status: 503,
      headers: { ...json, 'Retry-After': '30' },
      body: errorBody('busy'),
    });
  });

  it('any other thrown value is a 500 with its message', async () => {
    const crash = () => {
      throw new TypeError('cannot read x');
    };
    const throwString = () => {
      throw 'plain string';
    };
    expect(await dispatch(request, { preReconcile: crash })).toEqual({
      status: 500,
      headers: json,
      body: errorBody('cannot read x'),
    });
    expect(await dispatch(finalizeRequest, { finalize: throwString })).toEqual({
      status: 500,
      headers: json,
      body: errorBody('plain string'),
    });
  });
});

describe('HookError', () => {
  it('is an Error named HookError', () => {
    const error = new HookError('no', { status: 422 });
    expect(error).toBeInstanceOf(Error);
    expect([
      error.name,
      error.message,
      error.status,
      error.permanent,
      error.continue,
      error.retryAfterSeconds,
    ]).toEqual(['HookError', 'no', 422, false, false, undefined]);
  });

  it.each([[200], [302], [600], [450.5]])('refuses status %d', (status) => {
    expect(() => new HookError('x', { status })).toThrow(
      new RangeError(`HookError status must be an integer from 400 to 599, got ${status}`),
    );
  });

  it.each([[-1], [1.5]])('refuses retryAfterSeconds %d', (retryAfterSeconds) => {
    expect(() => new HookError('x', { retryAfterSeconds })).toThrow(
      new RangeError(`HookError retryAfterSeconds must be a non-negative integer, got ${retryAfterSeconds}`),
    );
  });
});
