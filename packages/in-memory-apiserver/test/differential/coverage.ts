/** The reach of the generated requests: how often each verb × resource × mistake class was sent. */
import { MISTAKES, RESOURCES, VERBS, WITH_STATUS, requestClass, type Step } from './model.ts';

export class Coverage {
  readonly counts = new Map<string, number>();

  add(step: Step): void {
    const key = requestClass(step);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  total(): number {
    return [...this.counts.values()].reduce((sum, count) => sum + count, 0);
  }

  /** verb × resource pairs, mistakes and classes reached. */
  summary(): { pairs: Set<string>; mistakes: Set<string>; classes: number } {
    const pairs = new Set<string>();
    const mistakes = new Set<string>();
    for (const key of this.counts.keys()) {
      const [verb, resource, mistake] = key.split(':');
      pairs.add(`${verb}:${resource}`);
      mistakes.add(mistake ?? '');
    }
    return { pairs, mistakes, classes: this.counts.size };
  }

  /** A table: one row per verb, one column per resource, each cell the number of mistake classes sent. */
  table(): string {
    const rows = [`${'verb'.padEnd(16)}${RESOURCES.map((resource) => resource.padStart(17)).join('')}`];
    for (const verb of VERBS) {
      const cells = RESOURCES.map((resource) => {
        const classes = [...this.counts.keys()].filter((key) => key.startsWith(`${verb}:${resource}:`));
        const sent = classes.reduce((sum, key) => sum + (this.counts.get(key) ?? 0), 0);
        return (sent === 0 ? '-' : `${sent}/${classes.length}m`).padStart(17);
      });
      rows.push(`${verb.padEnd(16)}${cells.join('')}`);
    }
    const { mistakes, classes } = this.summary();
    const missing = MISTAKES.filter((mistake) => !mistakes.has(mistake));
    rows.push(
      `${this.total()} requests in ${classes} classes; mistakes reached ${mistakes.size}/${MISTAKES.length}${missing.length > 0 ? ` (not: ${missing.join(', ')})` : ''}`,
    );
    return rows.join('\n');
  }
}

/** The verb × resource pairs the generator is meant to reach (status: its resources; scale: Deployments'). */
export const EXPECTED_PAIRS: readonly string[] = VERBS.flatMap((verb) =>
  verb.includes('scale')
    ? [`${verb}:deployments`]
    : verb.includes('status')
      ? WITH_STATUS.map((resource) => `${verb}:${resource}`)
      : RESOURCES.map((resource) => `${verb}:${resource}`),
);
