import { watchFreedSlots } from '../../db/database';
import { perDatabase } from '../../db/per-database';

/**
 * The slots this process last saw full (decision 009): a hint that picks how a family's booking starts,
 * never a rule. A booking of a slot seen full first reads without locks, and that read carries the lost
 * race's answer (half the attempts of a rush end there, in one statement); any other goes straight to the
 * transaction, which checks everything under its locks and answers a lost race itself. A wrong hint costs
 * a statement, not a booking: the database's count of the places decides (migration 023).
 */
/**
 * How long a slot seen full stays a hint (issue 39): a backstop should the announcement that it has room
 * again go unheard. A stale hint costs one statement (the peek), never a booking.
 */
export const HINT_KEEP_MS = 60_000;

export class FullSlotHints {
  /** Each slot seen full, with when the hint ends (HINT_KEEP_MS after it was seen). */
  private readonly full = new Map<number, number>();

  constructor(
    private readonly max = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether any of the slots was last seen full, not longer ago than the hints are kept. */
  anyFull(slotIds: readonly number[]): boolean {
    const now = this.now();
    return slotIds.some((id) => (this.full.get(id) ?? 0) > now);
  }

  /** What a read saw of the slots asked for: those in `full` are full, the others not (or the party's own). */
  saw(asked: readonly number[], full: readonly number[]): void {
    for (const id of asked) this.full.delete(id);
    for (const id of full) this.markFull(id);
  }

  markFull(slotId: number): void {
    // Bounded: past the limit it starts again (every slot then costs one statement more until seen again).
    if (this.full.size >= this.max) this.full.clear();
    this.full.set(slotId, this.now() + HINT_KEEP_MS);
  }

  /** Places given back: the slots may have room again. */
  forget(slotIds: readonly number[]): void {
    for (const id of slotIds) this.full.delete(id);
  }
}

/**
 * The hints kept for one database, each slot forgotten when the database announces it may have room again
 * (migration 019: places given back here or in another process, capacity raised).
 */
export const fullSlotHintsOf = perDatabase((db) => {
  const hints = new FullSlotHints();
  watchFreedSlots(db, (slotId) => hints.forget([slotId]));
  return hints;
});
