/**
 * The Events of an instance reconcile (docs/spec/children-and-status.md §10) and the log lines that go
 * with some of them. An Event is an API write too: none is sent once the reconcile's signal fired.
 */
import type { KubeObject } from '@scoby/kube-objects';
import type { Logger } from 'pino';
import type { ChildChange } from './children/write-children.ts';
import { HOOK_FAILED_IGNORED } from './hook-failure-policy.ts';
import type { SentWarnings } from './instance-memory.ts';
import type { StageWarnings } from './plan/warnings.ts';
import type { Run } from './reconcile-run.ts';

export interface EventSink {
  emit(object: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

const CHANGE_REASONS = { created: 'Created', updated: 'Updated', pruned: 'Pruned' } as const;

/**
 * Warnings the controller also logs (`warn`), with the fields their spec names: §8.10 and
 * docs/spec/hooks-v1.md §6.6.
 */
const LOGGED_WARNINGS: Readonly<Record<string, { withReason: boolean }>> = {
  HookConditionRepeated: { withReason: false },
  [HOOK_FAILED_IGNORED]: { withReason: true },
};

export class InstanceEvents {
  readonly #sink: EventSink;
  readonly #sent: SentWarnings;
  readonly #logger: Logger | undefined;

  constructor(sink: EventSink, sent: SentWarnings, logger: Logger | undefined) {
    this.#sink = sink;
    this.#sent = sent;
    this.#logger = logger;
  }

  emit(run: Run, object: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    if (run.signal.aborted) return;
    this.#sink.emit(object, type, reason, message);
  }

  /**
   * A plan stage's warnings: those of a judged reason when their messages changed since the
   * instance's last reconcile, the others each time.
   */
  warn(run: Run, instance: KubeObject, stage: StageWarnings): void {
    for (const reason of stage.judged) {
      const messages = stage.warnings.filter((warning) => warning.reason === reason).map((w) => w.message);
      if (this.#sent.changed(run.slot, reason, messages)) {
        for (const message of messages) this.#warning(run, instance, reason, message);
      }
    }
    for (const { reason, message } of stage.warnings) {
      if (!stage.judged.includes(reason)) this.#warning(run, instance, reason, message);
    }
  }

  #warning(run: Run, instance: KubeObject, reason: string, message: string): void {
    this.emit(run, instance, 'Warning', reason, message);
    const logged = LOGGED_WARNINGS[reason];
    if (logged === undefined) return;
    const fields = { instance: run.name, kind: instance.kind };
    this.#logger?.warn(logged.withReason ? { ...fields, reason } : fields, message);
  }

  /**
   * An info line per child created, updated or pruned, and one Normal Event per action naming every
   * child it touched (`created Deployment shop/mailer-orders, Service shop/mailer-orders`): an Event
   * is an API write, and one per child doubled the writes of a new instance.
   */
  announce(run: Run, instance: KubeObject, changes: readonly ChildChange[]): void {
    const byAction = new Map<ChildChange['action'], string[]>();
    for (const { action, child } of changes) {
      this.#logger?.info({ instance: run.name, kind: instance.kind, child }, `child ${action}`);
      const children = byAction.get(action);
      if (children) children.push(child);
      else byAction.set(action, [child]);
    }
    for (const [action, children] of byAction) {
      this.emit(run, instance, 'Normal', CHANGE_REASONS[action], `${action} ${children.join(', ')}`);
    }
  }
}
