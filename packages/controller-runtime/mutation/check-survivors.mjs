// Checks by hand what a Stryker run would, for the mutants a module's last run left undetected,
// when no heavy slot is free for the run itself: each one applied exactly as Stryker wrote it (its
// location and replacement in the incremental file), the given tests run with --bail=1, the file
// restored. One line per mutant: KILLED, SURVIVED or TIMEOUT (2 minutes).
//
//   git worktree add --detach /tmp/copy HEAD   # never in the working tree: it rewrites src/
//   (link node_modules of the root and of each workspace into the copy)
//   ONLY=work-sharing.ts:229,lease-view.ts:74 node mutation/check-survivors.mjs \
//     mutation/sharding/incremental.json /tmp/copy/packages/controller-runtime test/sharding/
//
// ONLY (optional) names the `file:line`s to check. A file whose source differs from the report's is skipped.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [report, root, ...tests] = process.argv.slice(2);
if (!report || !root || tests.length === 0)
  throw new Error('usage: node mutation/check-survivors.mjs <incremental.json> <package copy> <tests…>');
const only = process.env.ONLY?.split(',');
const files = JSON.parse(readFileSync(report, 'utf8')).files;
for (const [path, file] of Object.entries(files)) {
  const original = readFileSync(`${root}/${path}`, 'utf8');
  if (original !== file.source) {
    console.log(`SKIP ${path}: its source changed since the run`);
    continue;
  }
  const lines = original.split('\n');
  const offset = (at) =>
    lines.slice(0, at.line - 1).reduce((sum, line) => sum + line.length + 1, 0) + at.column - 1;
  for (const mutant of file.mutants) {
    if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
    const where = `${path.split('/').pop()}:${mutant.location.start.line}`;
    if (only && !only.includes(where)) continue;
    const mutated =
      original.slice(0, offset(mutant.location.start)) +
      mutant.replacement +
      original.slice(offset(mutant.location.end));
    writeFileSync(`${root}/${path}`, mutated);
    let verdict = 'SURVIVED';
    try {
      execFileSync('npx', ['vitest', 'run', '--bail=1', ...tests], {
        cwd: root,
        stdio: 'pipe',
        timeout: 120_000,
      });
    } catch (error) {
      verdict = error.signal ? 'TIMEOUT' : 'KILLED';
    } finally {
      writeFileSync(`${root}/${path}`, original);
    }
    console.log(
      `${verdict} ${path}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} (${mutant.status}) → ${JSON.stringify(mutant.replacement).slice(0, 60)}`,
    );
  }
}
