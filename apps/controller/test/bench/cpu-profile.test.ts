/** A CPU profile's self time per function (bench/cpu-profile.ts). */
import { describe, expect, it } from 'vitest';
import { type CpuProfile, formatTopSelfTimes, selfTimes } from '../../bench/cpu-profile.ts';

const frame = (functionName: string, url = '', lineNumber = 0, columnNumber = 0) => ({
  functionName,
  url,
  lineNumber,
  columnNumber,
});

describe('selfTimes', () => {
  it('sums each sample until the next one on the function on top, as a share of the busy time', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)') },
        { id: 2, callFrame: frame('(idle)') },
        { id: 3, callFrame: frame('render', 'file:///repo/apps/controller/bench/dist/x.mjs', 9, 4) },
        { id: 4, callFrame: frame('', 'file:///repo/node_modules/yaml/dist/index.js', 0, 0) },
        { id: 5, callFrame: frame('render', 'file:///repo/apps/controller/bench/dist/x.mjs', 9, 4) },
        { id: 6, callFrame: frame('(garbage collector)') },
      ],
      samples: [3, 2, 4, 5, 6, 3],
      timeDeltas: [0, 3_000, 50_000, 1_000, 2_000, 4_000],
    };
    const locate = (url: string, line: number) =>
      url.endsWith('x.mjs') ? `src/render.ts:${line + 1}` : undefined;
    const entries = selfTimes(profile, locate);
    expect(entries).toEqual([
      { name: 'render', where: 'src/render.ts:10', selfMs: 3 + 2, share: 5 / 10 },
      { name: '(garbage collector)', where: '', selfMs: 4, share: 4 / 10 },
      { name: '(anonymous)', where: 'node_modules/yaml/dist/index.js:1:1', selfMs: 1, share: 1 / 10 },
    ]);
    expect(formatTopSelfTimes(entries, 2, 2)).toEqual([
      'busy 10 ms (5000.0 µs per instance); top 2 by self time:',
      '   share   self ms  µs/inst.  function (place)',
      '   50.0 %       5.0    2500.0  render (src/render.ts:10)',
      '   40.0 %       4.0    2000.0  (garbage collector)',
    ]);
  });
});
