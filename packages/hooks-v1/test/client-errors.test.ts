import { afterEach, describe, expect, it } from 'vitest';
import { createHookClient, type HookClient, type HookResult } from '../src/index.ts';
import { finalizeCall, preReconcileCall } from './support/fixtures.ts';
import { answerWith, startScriptedServer, type ScriptedServer } from './support/servers.ts';

let server: ScriptedServer | undefined;
let client: HookClient | undefined;

afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

const now = Date.parse('2025-03-02T10:00:00Z');

async function answered(
  status: number,
  body: string,
  headers: Record<string, string> = {},
): Promise<HookResult> {
  server = await startScriptedServer(answerWith(status, body, headers));
  client = createHookClient({ now: () => now });
  return client.call(preReconcileCall(server.url));
}

const failure = { ok: false, permanent: false, continue: false, transient: true };

describe('non-2xx answers with JSON bodies (§6.1, §6.2)', () => {
  it.each<[number, object, Partial<HookResult>]>([
    [500, { message: 'metrics backend down' }, {}],
    [500, { message: 'metrics backend down', permanent: false, continue: false }, {}],
    [500, { message: 'metrics backend down', permanent: true }, { permanent: true, transient: false }],
    [500, { message: 'metrics backend down', continue: true }, { continue: true }],
    [
      500,
      { message: 'metrics backend down', permanent: true, continue: true },
      { permanent: true, continue: true, transient: false },
    ],
    [422, { message: 'metrics backend down', permanent: 'true', continue: 'yes' }, {}],
  ])('HTTP %d %j', async (status, body, expected) => {
    expect(await answered(status, JSON.stringify(body))).toEqual({
      ...failure,
      outcome: 'error-answer',
      message: `pre-reconcile hook: HTTP ${status}: metrics backend down`,
      status,
      ...expected,
    });
  });

  it('drops the ": <message>" part when the message is empty or not a string', async () => {
    expect(await answered(400, '{"message": 5}')).toEqual({
      ...failure,
      outcome: 'error-answer',
      message: 'pre-reconcile hook: HTTP 400',
      status: 400,
    });
  });

  it('matches the §8.3 examples', async () => {
    expect(
      await answered(422, '{"message": "spec.smtp.host must be a fully qualified name", "permanent": true}'),
    ).toEqual({
      ...failure,
      outcome: 'error-answer',
      message: 'pre-reconcile hook: HTTP 422: spec.smtp.host must be a fully qualified name',
      permanent: true,
      transient: false,
      status: 422,
    });
  });

  it('names the phase in the message', async () => {
    server = await startScriptedServer(answerWith(409, '{"message": "waiting for condition CleanedUp"}'));
    client = createHookClient();
    expect(await client.call(finalizeCall(server.url))).toEqual({
      ...failure,
      outcome: 'error-answer',
      message: 'finalize hook: HTTP 409: waiting for condition CleanedUp',
      status: 409,
    });
  });

  it('cuts the message to 1024 characters', async () => {
    const result = await answered(500, JSON.stringify({ message: 'x'.repeat(3000) }));
    expect(result.ok ? undefined : result.message).toBe(
      `pre-reconcile hook: HTTP 500: ${'x'.repeat(1024 - 30)}`,
    );
  });
});

describe('non-2xx answers with other bodies (§6.1)', () => {
  it.each([
    ['plain text', 400, 'unsupported form factor\n', 'pre-reconcile hook: HTTP 400: unsupported form factor'],
    [
      'HTML',
      502,
      '<html><h1>Bad Gateway</h1></html>',
      'pre-reconcile hook: HTTP 502: <html><h1>Bad Gateway</h1></html>',
    ],
    ['empty', 500, '', 'pre-reconcile hook: HTTP 500'],
    ['a JSON array', 500, '["a"]', 'pre-reconcile hook: HTTP 500: ["a"]'],
  ])('%s', async (_case, status, body, message) => {
    expect(await answered(status, body, { 'Content-Type': 'text/plain' })).toEqual({
      ...failure,
      outcome: 'error-answer',
      message,
      status,
    });
  });

  it('does not follow a 3xx: it is an error answer', async () => {
    server = await startScriptedServer((response, request) => {
      if (request.url === '/moved') answerWith(204)(response);
      else answerWith(307, 'moved', { Location: '/moved' })(response);
    });
    client = createHookClient();
    expect(await client.call(preReconcileCall(server.url))).toEqual({
      ...failure,
      outcome: 'error-answer',
      message: 'pre-reconcile hook: HTTP 307: moved',
      status: 307,
    });
    expect(server.requests.map((request) => request.url)).toEqual(['/hook?x=1']);
  });
});

describe('Retry-After (§6.4)', () => {
  it('429 with delta-seconds', async () => {
    expect(await answered(429, '{"message": "slow down"}', { 'Retry-After': '30' })).toEqual({
      ...failure,
      outcome: 'error-answer',
      message: 'pre-reconcile hook: HTTP 429: slow down',
      retryAfterMs: 30_000,
      status: 429,
    });
  });

  it('429 with an HTTP-date', async () => {
    const at = new Date(now + 45_000).toUTCString();
    expect(await answered(429, '', { 'Retry-After': at })).toEqual({
      ...failure,
      outcome: 'error-answer',
      message: 'pre-reconcile hook: HTTP 429',
      retryAfterMs: 45_000,
      status: 429,
    });
  });

  it('503 with Retry-After is transient even when permanent (§8.3)', async () => {
    const body = '{"message": "quota service unreachable", "permanent": true}';
    expect(await answered(503, body, { 'Retry-After': '5000' })).toEqual({
      ...failure,
      outcome: 'error-answer',
      message: 'pre-reconcile hook: HTTP 503: quota service unreachable',
      retryAfterMs: 1_000_000,
      status: 503,
    });
  });

  it('continue still wins over Retry-After', async () => {
    expect(await answered(503, '{"continue": true}', { 'Retry-After': '30' })).toEqual({
      ...failure,
      outcome: 'error-answer',
      message: 'pre-reconcile hook: HTTP 503',
      continue: true,
      retryAfterMs: 30_000,
      status: 503,
    });
  });

  it('is ignored on statuses other than 429 and 503', async () => {
    expect(await answered(500, '{"permanent": true}', { 'Retry-After': '30' })).toEqual({
      ...failure,
      outcome: 'error-answer',
      message: 'pre-reconcile hook: HTTP 500',
      permanent: true,
      transient: false,
      status: 500,
    });
  });

  it('is ignored when invalid', async () => {
    expect(await answered(503, '{"permanent": true}', { 'Retry-After': 'later' })).toEqual({
      ...failure,
      outcome: 'error-answer',
      message: 'pre-reconcile hook: HTTP 503',
      permanent: true,
      transient: false,
      status: 503,
    });
  });
});
