import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database';
import { type Api, addPerson, api, expectStatus, type Person } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { createEvent, createSection, type EventSchool, eventSchool, viewEvent } from './events-helpers';

// A section edit racing a booking (real PostgreSQL only: PGlite is one connection). The edit locks the
// section's slots before it reads their bookings, so a booking either lands first (and the edit answers
// 409) or finds its slot gone: never a live booking left on a slot that the edit deleted.

let t: TestApp;
let http: Api;
let school: EventSchool;
let teacher: Person;

/**
 * The booking flow's core: the row, whose place the database counts (migration 023). A slot the edit has
 * deleted meanwhile fails the row's foreign key: not booked.
 */
async function book(db: Db, slotId: number, parentId: number): Promise<boolean> {
  try {
    const { rows } = await sql`insert into bookings (school_id, event_id, slot_id, teacher_id, starts_at,
        ends_at, parent_id)
      select school_id, event_id, id, teacher_id, starts_at, ends_at, ${parentId} from slots
      where id = ${slotId} and booked_count < capacity
      returning id`.execute(db);
    return rows.length > 0;
  } catch (error) {
    if ((error as { code?: string }).code === '23503') return false;
    throw error;
  }
}

describe.runIf(process.env.TEST_DB === 'pg')('section edits racing bookings', () => {
  beforeAll(async () => {
    t = await createTestApp();
    http = api(t.app);
    school = await eventSchool(t, 'Race Academy');
    teacher = await addPerson(t, school.admin.token, 'teacher');
  });
  afterAll(() => t?.close());

  it('never leaves a live booking on a slot the edit removed', async () => {
    const outcomes = { booked: 0, refused: 0, applied: 0 };
    for (let round = 0; round < 15; round++) {
      const id = await createEvent(http, school.admin.token, `Race ${round}`, school.types.parentTeacher);
      const section = await createSection(http, school.admin.token, id, {
        date: '2026-09-10',
        start: '16:00',
        end: '16:30',
        teachers: [{ teacherId: teacher.id }],
      });
      const last = (await viewEvent(http, school.admin.token, id)).slots[0]?.slots[2]?.id ?? 0;
      // A family per round: every round's event is at the same time, and a parent never holds two
      // overlapping appointments (bookings_parent_overlap).
      const parent = await addPerson(t, school.admin.token, 'parent');
      // The edit drops the 16:20 slot while a family books it.
      // A little head start for the edit now and then, so both orders happen.
      const delay = (round % 3) * 4;
      const [booked, edit] = await Promise.all([
        new Promise((resolve) => setTimeout(resolve, delay)).then(() => book(t.db, last, parent.id)),
        http.post(`events/update-section?id=${section.id}`, school.admin.token, {
          date: '2026-09-10',
          start: '16:00',
          end: '16:20',
          teachers: [{ teacherId: teacher.id }],
        }),
      ]);
      if (booked) outcomes.booked += 1;
      if (edit.statusCode === 409) outcomes.refused += 1;
      else outcomes.applied += expectStatus(edit, 200) ? 1 : 0;
      // Exactly one wins: a booking that landed makes the edit refuse; an applied edit left nothing to book.
      expect(booked).toBe(edit.statusCode === 409);
      const orphans = await t.db
        .selectFrom('bookings')
        .select('id')
        .where('event_id', '=', id)
        .where('status', '=', 'booked')
        .where((eb) =>
          eb.or([
            eb('slot_id', 'is', null),
            eb.not(
              eb.exists(
                eb.selectFrom('slots').select('slots.id').whereRef('slots.id', '=', 'bookings.slot_id'),
              ),
            ),
          ]),
        )
        .execute();
      expect(orphans).toEqual([]);
    }
    expect(outcomes.booked + outcomes.applied).toBe(15);
    expect(outcomes.refused).toBe(outcomes.booked);
  });
});
