// Prints a module's mutation score and every mutant that survived or ran no test, as Markdown, from
// its Stryker run's report (the incremental file): node mutation/survivors.mjs <module> (from packages/controller-runtime).
import { readFileSync } from 'node:fs';

// Or another package's report, by its path: node mutation/survivors.mjs ../../apps/controller/mutation/plan/incremental.json
const module = process.argv[2];
if (!module) throw new Error('usage: node mutation/survivors.mjs <module | path of an incremental.json>');
const report = JSON.parse(
  readFileSync(
    module.endsWith('.json') ? module : new URL(`./${module}/incremental.json`, import.meta.url),
    'utf8',
  ),
);

const counts = {
  Killed: 0,
  Timeout: 0,
  Survived: 0,
  NoCoverage: 0,
  CompileError: 0,
  RuntimeError: 0,
  Ignored: 0,
};
const rows = [];
for (const [path, file] of Object.entries(report.files)) {
  const lines = file.source.split('\n');
  for (const mutant of file.mutants) {
    counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
    if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
    const line = mutant.location.start.line;
    const cell = (text) => `\`${text.trim().replaceAll('|', '\\|').replaceAll('\n', ' ').slice(0, 70)}\``;
    rows.push(
      `| ${path.replace(/^src\//, '')}:${line} | ${mutant.status === 'Survived' ? 'survived' : 'no test'} | ${mutant.mutatorName} | ${cell(lines[line - 1] ?? '')} → ${cell(mutant.replacement ?? '')} |`,
    );
  }
}
const detected = counts.Killed + counts.Timeout;
const valid = detected + counts.Survived + counts.NoCoverage;
console.log(
  `${module}: ${((100 * detected) / valid).toFixed(2)} % (${counts.Killed} killed, ${counts.Timeout} timed out, ${counts.Survived} survived, ${counts.NoCoverage} without a test, of ${valid})`,
);
console.log('\n| where | status | mutator | original → mutant |\n|---|---|---|---|');
for (const row of rows) console.log(row);
