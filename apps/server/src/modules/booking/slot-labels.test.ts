import { describe, expect, it } from 'vitest';
import type { SlotLabelRow } from './booking.repository';
import { LABELS_KEEP_MS, type ReadLabels, SlotLabels } from './slot-labels';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 17, minute));
/** Slot `id` of teacher `teacherId`, in the grid's order as given. */
const label = (id: number, teacherId: number, minute: number): SlotLabelRow => ({
  id,
  section_id: 1,
  teacher_id: teacherId,
  teacher_name: `Teacher ${teacherId}`,
  starts_at: at(minute),
  ends_at: at(minute + 10),
  location: `Room ${teacherId}`,
  section_starts_at: at(0),
});
const EVENT = [label(11, 1, 0), label(12, 1, 10), label(21, 2, 0), label(22, 2, 10)];
const places = (...ids: number[]) => ids.map((id) => ({ id, capacity: 1, booked_count: id % 2 }));

/** A read that counts its calls, records what it was asked for and answers from `rows`. */
function reader(rows: SlotLabelRow[] = EVENT) {
  const read: ReadLabels & { calls: number; asked: Array<number[] | undefined> } = Object.assign(
    async (slotIds?: number[]) => {
      read.calls += 1;
      read.asked.push(slotIds);
      return slotIds ? rows.filter((row) => slotIds.includes(row.id)) : rows;
    },
    { calls: 0, asked: [] as Array<number[] | undefined> },
  );
  return read;
}

describe('the slot labels', () => {
  it('label the places read, in the grid’s order, with the places as read', async () => {
    const labels = new SlotLabels();
    labels.setHearing(true);
    const rows = await labels.labelled(5, places(22, 11, 21), reader());
    expect(rows).toEqual([
      { ...label(11, 1, 0), capacity: 1, booked_count: 1 },
      { ...label(21, 2, 0), capacity: 1, booked_count: 1 },
      { ...label(22, 2, 10), capacity: 1, booked_count: 0 },
    ]);
  });

  it('keep an event’s every label while every process is heard, and read each answer’s own once not', async () => {
    const labels = new SlotLabels();
    const read = reader();
    labels.setHearing(true);
    await labels.labelled(5, places(11), read);
    await labels.labelled(5, places(12, 21), read);
    expect(read.asked).toEqual([undefined]);
    expect(labels.keeps(5)).toBe(true);
    labels.setHearing(false);
    expect(labels.keeps(5)).toBe(false);
    await labels.labelled(5, places(12, 21), read);
    await labels.labelled(5, places(12, 21), read);
    expect(read.asked).toEqual([undefined, [12, 21], [12, 21]]);
    expect(labels.keeps(5)).toBe(false);
  });

  it('read an event’s labels again once they are older than the time limit (a missed announcement’s backstop)', async () => {
    let now = 1_000_000;
    const labels = new SlotLabels(() => now);
    const read = reader();
    labels.setHearing(true);
    await labels.labelled(5, places(11), read);
    now += LABELS_KEEP_MS - 1;
    await labels.labelled(5, places(11), read);
    expect(read.asked).toEqual([undefined]);
    now += 1;
    await labels.labelled(5, places(11), read);
    expect(read.asked).toEqual([undefined, undefined]);
  });

  it('forget an announced event’s labels, only its; every event’s for 0', async () => {
    const labels = new SlotLabels();
    labels.setHearing(true);
    const read = reader();
    await labels.labelled(5, places(11), read);
    await labels.labelled(6, places(11), read);
    labels.changed(5);
    expect([labels.keeps(5), labels.keeps(6)]).toEqual([false, true]);
    labels.changed(0);
    expect(labels.keeps(6)).toBe(false);
  });

  it('do not keep what a read brought back when an announcement came while it ran', async () => {
    const labels = new SlotLabels();
    labels.setHearing(true);
    let finish: (rows: SlotLabelRow[]) => void = () => {};
    const pending = labels.labelled(
      5,
      places(11),
      () => new Promise<SlotLabelRow[]>((resolve) => (finish = resolve)),
    );
    labels.changed(9); // any event: the read may have seen the database before that change
    finish(EVENT);
    expect(await pending).toHaveLength(1);
    expect(labels.keeps(5)).toBe(false);
  });

  it('read again for a slot the kept labels lack, and leave out one gone since its places were read', async () => {
    const labels = new SlotLabels();
    labels.setHearing(true);
    await labels.labelled(5, places(11), reader());
    // A slot made in another process, its announcement not heard yet.
    const grown = reader([...EVENT, label(13, 1, 20)]);
    expect((await labels.labelled(5, places(11, 13), grown)).map((row) => row.id)).toEqual([11, 13]);
    expect(grown.calls).toBe(1);
    // A slot removed after its places were read: no label, no column entry.
    const shrunk = reader(EVENT.filter((row) => row.id !== 12));
    labels.changed(5);
    expect((await labels.labelled(5, places(11, 12), shrunk)).map((row) => row.id)).toEqual([11]);
  });

  it('keep at most fifty events, the least recently used going first', async () => {
    const labels = new SlotLabels();
    labels.setHearing(true);
    for (let event = 1; event <= 50; event += 1) await labels.labelled(event, places(11), reader());
    await labels.labelled(1, places(11), reader());
    await labels.labelled(51, places(11), reader());
    expect([labels.keeps(1), labels.keeps(2), labels.keeps(3), labels.keeps(51)]).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });
});
