import { describe, expect, it } from 'vitest';
import { PARENT_EXITED, startedByNpm, watchParent } from '../../src/process/parent-exit.ts';

describe('parent exit', () => {
  it('is watched only under npm, which sets npm_execpath for what it runs', () => {
    expect(startedByNpm({ npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js' })).toBe(true);
    expect(startedByNpm({ npm_execpath: '' })).toBe(false);
    expect(startedByNpm({})).toBe(false);
  });

  it('resolves once the parent is another than at the start, and not before', async () => {
    let parent = 100;
    const watch = watchParent(() => parent, 5);
    let exited: string | undefined;
    void watch.exited.then((reason) => (exited = reason));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(exited).toBeUndefined();
    parent = 1;
    await expect(watch.exited).resolves.toBe(PARENT_EXITED);
    watch.stop();
  });

  it('reports a parent gone after a stop signal already delivered, so a signal to the whole group is named', async () => {
    let parent = 100;
    const watch = watchParent(() => parent, 5);
    const signalled = new Promise<string>((resolve) => process.once('SIGUSR2', () => resolve('SIGUSR2')));
    await new Promise((resolve) => setTimeout(resolve, 30));
    parent = 1;
    process.kill(process.pid, 'SIGUSR2');
    // Both are due when the loop next turns: the interval (timer phase) and the signal (poll phase).
    const busyUntil = Date.now() + 30;
    while (Date.now() < busyUntil) {
      // the event loop is held, as a busy controller holds it
    }
    await expect(Promise.race([signalled, watch.exited])).resolves.toBe('SIGUSR2');
    await expect(watch.exited).resolves.toBe(PARENT_EXITED);
    watch.stop();
  });

  it('stops looking when stopped', async () => {
    let looks = 0;
    const watch = watchParent(() => ++looks && 100, 5);
    watch.stop();
    const after = looks;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(looks).toBe(after);
  });
});
