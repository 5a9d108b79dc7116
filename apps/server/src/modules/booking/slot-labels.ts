import { watchSlotLabels } from '../../db/database';
import { perDatabase } from '../../db/per-database';
import { keepRecent } from '../../lib/keep-recent';
import type { GridSlotRow, SlotLabelRow, SlotPlaces } from './booking.repository';

// What labels an event's slots (the teacher's name, the times, where) changes only when the school edits
// the event's sections or renames a teacher; the places left change with every booking. A lost race's
// answer (half the attempts of a rush) reads only the places, and each process keeps the labels per event
// (decision 009), forgetting an event's as soon as the database announces a change to them (migration 020).
// Kept only while the announcements of every process are heard: without them (PGlite, or the listening
// connection lost) each answer reads the labels of its own slots.

/** At most this many events' labels per process (the least recently used go first). */
const MAX_EVENTS = 50;
/**
 * How long an event's labels are kept at most (issue 39): a backstop should an announcement go unheard
 * while the listener still counted as hearing (its heartbeat notices that within seconds).
 */
export const LABELS_KEEP_MS = 60_000;

/** Each slot's labels with its place in the grid's order. */
type Labels = Map<number, { label: SlotLabelRow; rank: number }>;

/** Reads labels: an event's every slot's, or only those of `slotIds`; in the grid's order. */
export type ReadLabels = (slotIds?: number[]) => Promise<SlotLabelRow[]>;

export class SlotLabels {
  readonly #kept = new Map<number, { labels: Labels; until: number }>();
  #hearing = false;
  /** Moves on with every announcement: a read that began before one is not kept. */
  #generation = 0;

  constructor(private readonly now: () => number = Date.now) {}

  get hearing(): boolean {
    return this.#hearing;
  }

  /**
   * The slots with their places, labelled and in the grid's order. A slot the kept labels lack (made in
   * another process, its announcement not heard yet) has the event's labels read again; one gone since
   * the places were read is left out.
   */
  async labelled(eventId: number, places: SlotPlaces[], read: ReadLabels): Promise<GridSlotRow[]> {
    const ids = places.map((slot) => slot.id);
    const kept = this.#kept.get(eventId);
    let labels = kept && kept.until > this.now() ? kept.labels : undefined;
    if (!labels || !ids.every((id) => labels?.has(id))) labels = await this.#read(eventId, ids, read);
    else if (kept) keepRecent(this.#kept, eventId, kept, MAX_EVENTS); // used: now the most recent
    const found: Array<{ label: SlotLabelRow; rank: number; slot: SlotPlaces }> = [];
    for (const slot of places) {
      const kept = labels.get(slot.id);
      if (kept) found.push({ label: kept.label, rank: kept.rank, slot });
    }
    // Each row written out, not spread: `{ ...label, capacity }` cost 4.6 µs a row on Node 20, 110 µs for
    // a teacher's column (decision 031).
    return found.sort((a, b) => a.rank - b.rank).map(({ label, slot }) => gridRow(label, slot));
  }

  async #read(eventId: number, ids: number[], read: ReadLabels): Promise<Labels> {
    this.#kept.delete(eventId);
    if (!this.#hearing) return ranked(await read(ids));
    const generation = this.#generation;
    const until = this.now() + LABELS_KEEP_MS;
    const labels = ranked(await read());
    if (this.#hearing && generation === this.#generation)
      keepRecent(this.#kept, eventId, { labels, until }, MAX_EVENTS);
    return labels;
  }

  /** Whether an event's labels are kept (for tests). */
  keeps(eventId: number): boolean {
    return this.#kept.has(eventId);
  }

  /** An event's labels changed (0: every event's): forget them, and whatever is being read now. */
  changed(eventId: number): void {
    this.#generation += 1;
    if (eventId === 0) this.#kept.clear();
    else this.#kept.delete(eventId);
  }

  /** Whether every process's announcements are heard; when not, nothing is kept. */
  setHearing(hearing: boolean): void {
    this.#generation += 1;
    this.#kept.clear();
    this.#hearing = hearing;
  }
}

const gridRow = (label: SlotLabelRow, slot: SlotPlaces): GridSlotRow => ({
  id: label.id,
  section_id: label.section_id,
  teacher_id: label.teacher_id,
  teacher_name: label.teacher_name,
  starts_at: label.starts_at,
  ends_at: label.ends_at,
  location: label.location,
  section_starts_at: label.section_starts_at,
  capacity: slot.capacity,
  booked_count: slot.booked_count,
});

const ranked = (rows: SlotLabelRow[]): Labels =>
  new Map(rows.map((label, rank) => [label.id, { label, rank }]));

/** The database's slot labels, listening from their first use. */
export const slotLabelsOf = perDatabase((db) => {
  const labels = new SlotLabels();
  watchSlotLabels(db, {
    changed: (eventId) => labels.changed(eventId),
    hearing: (all) => labels.setHearing(all),
  });
  return labels;
});
