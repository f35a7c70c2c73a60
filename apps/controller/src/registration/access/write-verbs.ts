/**
 * The verb each instance write uses, from the answers about both: `patch` where granted, else
 * `update`; neither is a denial only where the write is required (docs/spec/registration.md §7).
 */
import { WRITE_VERBS, type WriteChoice } from './access-needs.ts';
import type { WriteVerbs } from '../../instance/instance-config.ts';
import type { Denial } from './missing-access.ts';

/** What a choice's question is: both verbs of its resource. */
export function writeQuestions(choice: WriteChoice): WriteChoice['need'] {
  return { ...choice.need, verbs: WRITE_VERBS };
}

/**
 * `refused` are the denials of writeQuestions(choice) for every choice: a verb is granted where no
 * namespace refused it. A required write with neither verb is one denial `patch or update` per
 * namespace that refused `patch`.
 */
export function chooseWriteVerbs(
  choices: readonly WriteChoice[],
  refused: readonly Denial[],
): { verbs: WriteVerbs; denials: Denial[] } {
  const verbs: WriteVerbs = {};
  const denials: Denial[] = [];
  for (const choice of choices) {
    const sameResource = (denial: Denial) =>
      denial.need.group === choice.need.group &&
      denial.need.resource === choice.need.resource &&
      (denial.need.subresource ?? '') === (choice.need.subresource ?? '');
    const ofChoice = refused.filter(sameResource);
    const granted = WRITE_VERBS.find((verb) => !ofChoice.some((denial) => denial.verb === verb));
    if (granted !== undefined) {
      verbs[choice.write] = granted;
      continue;
    }
    if (!choice.required) continue;
    const namespaces = [
      ...new Set(ofChoice.filter((denial) => denial.verb === WRITE_VERBS[0]).map((d) => d.namespace)),
    ];
    for (const namespace of namespaces) {
      denials.push({ need: choice.need, verb: WRITE_VERBS.join(' or '), namespace });
    }
  }
  return { verbs, denials };
}
