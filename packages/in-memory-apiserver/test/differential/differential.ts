/**
 * The property: for seeded request sequences, a fresh in-memory server answers as the reference does.
 * fast-check generates the sequences and, on a difference, shrinks the sequence to a minimal one, which
 * the thrown error prints.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { startApiServer, type ApiServerOptions } from '../../src/index.ts';
import type { Target } from '../conformance/harness.ts';
import type { AcceptedDifference } from './accepted.ts';
import { Coverage } from './coverage.ts';
import { installDifferentialCrds } from './crds.ts';
import { sequenceArbitrary } from './generator.ts';
import type { Step } from './model.ts';
import { reproduction, runSequence, type RunResult } from './run.ts';
import { Side } from './side.ts';

export interface Reference {
  label: string;
  /** A target for one sequence, and how to let it go. */
  open(): Promise<{ target: Target; release(): Promise<void> }>;
}

/** A shared real cluster: one control plane, a namespace per sequence. */
export function sharedCluster(target: Target, label = 'kube-apiserver'): Reference {
  let installed: Promise<void> | undefined;
  return {
    label,
    open: async () => {
      installed ??= installDifferentialCrds(target);
      await installed;
      return { target, release: async () => {} };
    },
  };
}

/** A fresh in-memory server per sequence (to check the harness itself, or a weakened subject against it). */
export function freshInMemory(label = 'in-memory reference', options: ApiServerOptions = {}): Reference {
  return {
    label,
    open: async () => {
      const server = await startApiServer(options);
      const target: Target = { kubeConfig: server.kubeConfig(), server, stop: () => server.stop() };
      await installDifferentialCrds(target);
      return { target, release: () => server.stop() };
    },
  };
}

export interface DifferentialOptions {
  seed: number;
  /** Sequences generated (each a fresh subject and namespace). */
  runs: number;
  maxLength: number;
  reference: Reference;
  accepted?: readonly AcceptedDifference[];
  coverage?: Coverage;
  subjectOptions?: ApiServerOptions;
  /** Around each request sent to the subject (a test weakens its validation only while it answers). */
  aroundSubject?: <T>(send: () => Promise<T>) => Promise<T>;
}

export interface Figures {
  sequences: number;
  requests: number;
  acceptedDifferences: number;
  /** Requests not sent after an accepted difference left the servers in different states. */
  skipped: number;
}

let counter = 0;
/** Tells apart the namespaces of two runs on one cluster (a deleted one lingers while it terminates). */
const RUN = randomBytes(2).toString('hex');

/** One sequence against a fresh subject and a fresh namespace of the reference. */
export async function compareSequence(
  steps: readonly Step[],
  options: Omit<DifferentialOptions, 'seed' | 'runs' | 'maxLength'>,
  tag: string,
): Promise<RunResult> {
  const namespace = `diff-${tag}-${RUN}${(counter++).toString(36)}`;
  const reference = await options.reference.open();
  const subjectServer = await startApiServer(options.subjectOptions ?? {});
  const subjectTarget: Target = {
    kubeConfig: subjectServer.kubeConfig(),
    server: subjectServer,
    stop: () => subjectServer.stop(),
  };
  try {
    await installDifferentialCrds(subjectTarget);
    return await runSequence(
      steps,
      new Side(options.reference.label, reference.target, namespace),
      new Side('in-memory', subjectTarget, namespace, options.aroundSubject),
      options.accepted,
    );
  } finally {
    await subjectServer.stop();
    await reference.release();
  }
}

/** Runs the property; throws with the shrunk reproduction when a difference is found. */
export async function checkDifferential(options: DifferentialOptions): Promise<Figures> {
  const figures: Figures = { sequences: 0, requests: 0, acceptedDifferences: 0, skipped: 0 };
  let firstPass = true;
  try {
    await fc.assert(
      fc.asyncProperty(sequenceArbitrary(options.maxLength), async (steps) => {
        const result = await compareSequence(steps, options, `${options.seed}`);
        if (firstPass) {
          figures.sequences++;
          figures.requests += result.compared;
          figures.acceptedDifferences += result.accepted.length;
          figures.skipped += result.skipped;
          for (const step of steps) options.coverage?.add(step);
        }
        const difference = result.differences[0];
        if (difference !== undefined) {
          firstPass = false;
          throw new Error(reproduction(steps, difference));
        }
      }),
      {
        seed: options.seed,
        numRuns: options.runs,
        endOnFailure: false,
        interruptAfterTimeLimit: 10 * 60_000,
      },
    );
  } catch (error) {
    // The figures of the sequences compared before the difference, for the long run's report.
    throw Object.assign(error as Error, { figures });
  }
  return figures;
}
