import { Writable } from 'node:stream';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLogger, newReconcileId, withContext } from '../../src/log/logger.ts';

const LOG_THEN_EXIT = new URL('./fixtures/log-then-exit.ts', import.meta.url);

function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines };
}

describe('logger', () => {
  it('writes JSON lines with level, ISO time, component and message', () => {
    const out = capture();
    createLogger({ component: 'scoby-controller', destination: out.stream }).info('started');
    const [line] = out.lines();
    expect(line).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      component: 'scoby-controller',
      msg: 'started',
    });
  });

  it('carries registration, instance and reconcileId in child loggers', () => {
    const out = capture();
    const root = createLogger({ component: 'scoby-controller', destination: out.stream });
    const registrationLogger = withContext(root, { registration: 'mailer' });
    const reconcileLogger = withContext(registrationLogger, { instance: 'shop/orders', reconcileId: 'r-1' });
    registrationLogger.info('registration ready');
    reconcileLogger.warn({ reason: 'RenderFailed' }, 'render failed');
    const [first, second] = out.lines();
    expect(first).toMatchObject({ level: 'info', registration: 'mailer', msg: 'registration ready' });
    expect(first).not.toHaveProperty('instance');
    expect(second).toMatchObject({
      level: 'warn',
      registration: 'mailer',
      instance: 'shop/orders',
      reconcileId: 'r-1',
      reason: 'RenderFailed',
      msg: 'render failed',
    });
  });

  it('leaves unset context fields out', () => {
    const out = capture();
    withContext(createLogger({ component: 'scoby-controller', destination: out.stream }), {
      registration: 'mailer',
      instance: undefined,
    }).info('x');
    expect(Object.keys(out.lines()[0] ?? {})).not.toContain('instance');
  });

  it('honours the level', () => {
    const out = capture();
    const logger = createLogger({ component: 'scoby-controller', level: 'warn', destination: out.stream });
    logger.info('hidden');
    logger.debug('hidden');
    logger.error('shown');
    expect(out.lines().map((line) => [line.level, line.msg])).toEqual([['error', 'shown']]);
  });

  it('makes distinct reconcile ids', () => {
    const ids = new Set(Array.from({ length: 100 }, newReconcileId));
    expect(ids.size).toBe(100);
    expect([...ids][0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('writes console lines for people: time, level, message, then the other fields as JSON', () => {
    const chunks: string[] = [];
    const logger = createLogger({
      component: 'scoby-controller',
      format: 'console',
      destination: { write: (text: string) => void chunks.push(text) },
    });
    logger.info({ instance: 'default/hello', child: 'Deployment default/greeter-hello' }, 'child created');
    logger.error('cannot start');
    expect(chunks.join('').split('\n')).toEqual([
      expect.stringMatching(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\tINFO\tchild created\t\{"instance":"default\/hello","child":"Deployment default\/greeter-hello"\}$/,
      ),
      expect.stringMatching(/^\S+\tERROR\tcannot start$/),
      '',
    ]);
  });

  it('colours the level of console lines when asked', () => {
    const chunks: string[] = [];
    createLogger({
      component: 'scoby-controller',
      format: 'console',
      colour: true,
      destination: { write: (text: string) => void chunks.push(text) },
    }).warn('slow');
    const [, level, message] = chunks.join('').split('\t');
    expect({ level, message }).toEqual({ level: '\u001b[33mWARN\u001b[0m', message: 'slow\n' });
  });

  it('loses no line when the process exits while its reader is slow', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(LOG_THEN_EXIT)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // The reader waits before reading: the pipe fills while the process logs and exits.
    child.stdout.pause();
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    setTimeout(() => child.stdout.resume(), 300);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const messages = output
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toHaveLength(201);
    expect(messages.at(-1)).toBe('stopped');
  }, 30_000);
});
