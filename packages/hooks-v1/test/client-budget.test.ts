/** The process-wide budget of memory for hook answers, as calls meet it (answer-budget.ts). */
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerBudget, createHookClient, type HookClient, type HookResult } from '../src/index.ts';
import { preReconcileCall } from './support/fixtures.ts';
import { startScriptedServer, type ScriptedServer } from './support/servers.ts';

const MIB = 1024 * 1024;
const KIB = 1024;

let servers: ScriptedServer[] = [];
let client: HookClient | undefined;

afterEach(async () => {
  client?.close();
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
  client = undefined;
});

async function serve(answer: (response: http.ServerResponse) => void): Promise<string> {
  const server = await startScriptedServer(answer);
  servers.push(server);
  return server.url;
}

/** A valid answer of exactly `bytes`: a status note padded with `x`. */
function answerOf(bytes: number): string {
  const head = '{"object": {"status": {"note": "';
  const tail = '"}}}';
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
}

const noted = (bytes: number): HookResult => ({
  ok: true,
  object: { status: { note: 'x'.repeat(bytes - 36) } },
});

/** An 8 MiB budget: a 2 MiB answer takes a block of 6 MiB + 64 KiB, so one at a time. */
function budgeted(): { budget: AnswerBudget; hooks: HookClient } {
  const budget = new AnswerBudget({ totalBytes: 8 * MIB, smallAnswerBytes: 64 * KIB });
  client = createHookClient({ answerBudget: budget });
  return { budget, hooks: client };
}

describe('the hook answer budget', () => {
  it('reads large answers one after another when only one fits, and gives everything back', async () => {
    const body = answerOf(2 * MIB);
    const url = await serve((response) => response.end(body));
    const { budget, hooks } = budgeted();
    let mostInUse = 0;
    const watch = setInterval(() => (mostInUse = Math.max(mostInUse, budget.inUse)), 1);
    const results = await Promise.all([1, 2, 3].map(() => hooks.call(preReconcileCall(url))));
    clearInterval(watch);
    expect(results).toEqual([noted(2 * MIB), noted(2 * MIB), noted(2 * MIB)]);
    expect(mostInUse).toBe(6 * MIB + 64 * KIB);
    expect([budget.inUse, budget.waiting]).toEqual([0, 0]);
  });

  it('does not count small answers, so they pass while large ones hold the budget', async () => {
    let release: (() => void) | undefined;
    const stalled = await serve((response) => {
      response.writeHead(200, { 'Content-Length': String(2 * MIB) });
      response.write('{"object": {"status": {"note": "');
      release = () => response.end('x'.repeat(2 * MIB - 36) + '"}}}');
    });
    const small = await serve((response) => response.end(answerOf(10 * KIB)));
    const { budget, hooks } = budgeted();
    const holding = hooks.call(preReconcileCall(stalled));
    await waitUntil(() => budget.inUse > 0);
    expect(await hooks.call(preReconcileCall(small))).toEqual(noted(10 * KIB));
    release?.();
    expect(await holding).toEqual(noted(2 * MIB));
    expect(budget.inUse).toBe(0);
  });

  it('makes a large answer wait in line, within its timeout, while another holds the budget', async () => {
    let release: (() => void) | undefined;
    const stalled = await serve((response) => {
      response.writeHead(200, { 'Content-Length': String(2 * MIB) });
      response.write('{"object": {"status": {"note": "');
      release = () => response.end('x'.repeat(2 * MIB - 36) + '"}}}');
    });
    const body = answerOf(1 * MIB);
    const large = await serve((response) => response.end(body));
    const { budget, hooks } = budgeted();
    const holding = hooks.call(preReconcileCall(stalled));
    await waitUntil(() => budget.inUse > 0);

    const timedOut = await hooks.call(preReconcileCall(large, { timeoutMs: 300 }));
    expect(timedOut).toMatchObject({
      ok: false,
      message: `pre-reconcile hook: request to ${large} timed out after 0.3s`,
    });
    expect(budget.waiting).toBe(0);

    const waiting = hooks.call(preReconcileCall(large));
    await waitUntil(() => budget.waiting === 1);
    release?.();
    expect(await holding).toEqual(noted(2 * MIB));
    expect(await waiting).toEqual(noted(1 * MIB));
    expect([budget.inUse, budget.waiting]).toEqual([0, 0]);
  });

  it('fails an answer announced larger than the whole budget before reading it', async () => {
    const url = await serve((response) => {
      response.writeHead(200, { 'Content-Length': String(3 * MIB) });
      response.write('{');
    });
    const { budget, hooks } = budgeted();
    expect(await hooks.call(preReconcileCall(url, { timeoutMs: 10_000 }))).toEqual({
      ok: false,
      message: `pre-reconcile hook: request to ${url} failed: response needs about 9.0 MiB to read and parse, more than the 8.0 MiB all hook answers may hold at once`,
      permanent: false,
      continue: false,
      transient: true,
      outcome: 'transport-error',
    });
    expect(budget.inUse).toBe(0);
  });

  it('abandons a streaming answer as soon as its JSON would outgrow the budget once parsed', async () => {
    // `[{},{},…]` without Content-Length, never ended: its 2 MiB would be estimated at over 100 MiB parsed.
    const url = await serve((response) => {
      response.writeHead(200);
      response.write('{"object": {"status": {"items": [');
      response.write('{},'.repeat(700_000));
    });
    const { budget, hooks } = budgeted();
    const result = await hooks.call(preReconcileCall(url, { timeoutMs: 10_000 }));
    expect(result).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        new RegExp(
          `^pre-reconcile hook: request to ${url.replaceAll('?', '\\?')} failed: response needs about \\d+\\.\\d MiB to read and parse, more than the 8\\.0 MiB all hook answers may hold at once$`,
        ),
      ),
    });
    expect(budget.inUse).toBe(0);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition not met within 2.5 s');
}
