// The floor of the booking rush (issue 14; docs/perf-log/2026-12-06-booking-path.md, session 18): the
// least work PostgreSQL must do for a booking that keeps decision 009's rules, written bare (Fastify + pg,
// no sessions, no validation, no answer beyond an id or the slot's column), so the bench can say how far the
// app is from it on the same host and load. What it keeps, because the rules need it:
// - the event share-locked and the family's row locked (a family's changes take turns: per-child rules);
// - the family's holdings read (the per-child limit and travel gap need them) and the slot asked for;
// - the booking row with all its constraints, indexes, foreign keys and triggers (the place counted by the
//   database from the rows, capacity, overlaps, once per teacher, idempotency: migrations 004 and 023), and
//   the confirmation mail written in the same transaction (exactly once), rendered to the app's size from
//   the slot's times this process keeps;
// - as the app's role under row-level security, in the school's scope (decision 016);
// - a slot this process last saw full (a place taken or lost) read first without a transaction, as the
//   app's hint does (full-slot-hints.ts).
// All of a booking's statements run in one call of a PL/pgSQL function, so a booking is one round trip:
// the same statements sent one by one, as the app sends its own, cost PostgreSQL half as much again
// (the booking path's perf log, session 18). What it leaves out costs the app PostgreSQL work too, so the
// floor is below anything that answers as the spec asks: the answer's labels and bookings, the event's
// recipient list and closing time, the party's children, the grid a loser gets (places only here), the push
// rows.
import Fastify from 'fastify';
import pg from 'pg';
import { asAppRole, BENCH_POOL_SIZE } from './bench-support';
import type { StatementCounter } from './statement-counter';

// Made by the tables' owner when the floor starts (the bench's own database; the app never calls it).
const BOOK = `create or replace function bench_floor_book(p_school int, p_event int, p_slot int,
    p_parent int, p_student int, p_to text, p_subject text, p_text text, p_html text, p_attachments jsonb,
    out booking_id int, out now_full boolean)
  language plpgsql as $$
  declare
    slot record;
  begin
    perform from events e join users u on u.id = p_parent and u.school_id = p_school
      where e.school_id = p_school and e.id = p_event for share of e for no key update of u;
    perform from bookings b where b.school_id = p_school and b.event_id = p_event and b.parent_id = p_parent
      and b.status = 'booked';
    select s.teacher_id, s.starts_at, s.ends_at into slot from slots s
      where s.school_id = p_school and s.event_id = p_event and s.id = p_slot and s.starts_at > now()
        and s.booked_count < s.capacity;
    if not found then
      return;
    end if;
    -- The database counts the place (a slot without room fails the row: 23514).
    insert into bookings (school_id, event_id, slot_id, teacher_id, starts_at, ends_at, parent_id, student_id,
        booked_by)
      values (p_school, p_event, p_slot, slot.teacher_id, slot.starts_at, slot.ends_at, p_parent, p_student,
        p_parent)
      returning id into booking_id;
    insert into mail_outbox (school_id, to_address, subject, text_body, html_body, attachments)
      values (p_school, p_to, p_subject, p_text, p_html, p_attachments);
    select s.booked_count >= s.capacity into now_full from slots s where s.id = p_slot;
  end $$`;
const CALL = 'select booking_id, now_full from bench_floor_book($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)';
const SLOTS = 'select id, teacher_id, starts_at, ends_at from slots where school_id = $1 and event_id = $2';
const COLUMN = `select id, capacity, booked_count from slots where school_id = $1 and event_id = $2
  and teacher_id = (select teacher_id from slots where id = $3) and starts_at > now()`;

type Slot = { id: number; teacher_id: number; starts_at: Date; ends_at: Date };

/**
 * A confirmation of the app's size (its text 0.4 KB, HTML 1 KB, the .ics attachment 1.1 KB as JSON, so the
 * row is compressed and moved out of line as the app's is), different for each booking.
 */
function mail(parentId: number, slot: Slot) {
  const stamp = (date: Date) => date.toISOString().replace(/[-:.]/g, '');
  const when = `${slot.starts_at.toISOString()} to ${slot.ends_at.toISOString()}`;
  const text = `Dear parent ${parentId},\n\nYour appointment with teacher ${slot.teacher_id} on ${when} in Room ${slot.teacher_id} is booked. `;
  const ics = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Parley//Booking//EN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:booking-${slot.id}-${parentId}@parley`,
    `DTSTAMP:${stamp(new Date())}`,
    `DTSTART:${stamp(slot.starts_at)}`,
    `DTEND:${stamp(slot.ends_at)}`,
    `SUMMARY:Appointment with teacher ${slot.teacher_id}`,
    `DESCRIPTION:${text.repeat(3)}`,
    `LOCATION:Room ${slot.teacher_id}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n');
  const content = Buffer.from(ics).toString('base64');
  return [
    `parent${parentId}@booking-rush.example.org`,
    'Your appointment is booked',
    text.repeat(3),
    `<html><body><p>${text.repeat(7)}</p><table><tr><td>${when}</td><td>Room ${slot.teacher_id}</td></tr></table></body></html>`,
    JSON.stringify([{ filename: 'appointment.ics', contentType: 'text/calendar', content }]),
  ];
}

export async function serveFloor(databaseUrl: string, schoolId: number, statements: StatementCounter) {
  const owner = new pg.Client({ connectionString: databaseUrl });
  await owner.connect();
  await owner.query(BOOK);
  await owner.end();
  // The app's pool size (decision 027) and its role and scope (decision 016).
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: BENCH_POOL_SIZE,
    options: `-c lock_timeout=3000 -c statement_timeout=10000 -c random_page_cost=1.1 ${asAppRole(schoolId)}`,
  });
  const full = new Set<number>();
  // The slots' times, read once per event as the app keeps its slot labels (slot-labels.ts).
  const slotsOf = new Map<number, Promise<Map<number, Slot>>>();
  const slotOf = async (eventId: number, slotId: number) => {
    let slots = slotsOf.get(eventId);
    if (!slots) {
      slots = statements
        .run<Slot>(pool, SLOTS, [schoolId, eventId], 'slots')
        .then(({ rows }) => new Map(rows.map((row) => [row.id, row])));
      slotsOf.set(eventId, slots);
    }
    return (await slots).get(slotId);
  };
  const column = async (eventId: number, slotId: number) =>
    (
      await statements.run<{ id: number; capacity: number; booked_count: number }>(
        pool,
        COLUMN,
        [schoolId, eventId, slotId],
        'column',
      )
    ).rows;
  const app = Fastify({ logger: false });
  app.post('/book', async (request, reply) => {
    const eventId = Number((request.query as { id: string }).id);
    const { slotId, parentId, studentId } = request.body as {
      slotId: number;
      parentId: number;
      studentId: number;
    };
    if (full.has(slotId)) {
      const places = await column(eventId, slotId);
      if (places.some((slot) => slot.id === slotId && slot.booked_count >= slot.capacity))
        return reply.code(409).send({ places });
      full.delete(slotId);
    }
    const slot = await slotOf(eventId, slotId);
    let made: { booking_id: number | null; now_full: boolean | null } | undefined;
    if (slot) {
      try {
        const values = [schoolId, eventId, slotId, parentId, studentId, ...mail(parentId, slot)];
        made = (
          await statements.run<{ booking_id: number | null; now_full: boolean | null }>(
            pool,
            CALL,
            values,
            'book',
          )
        ).rows[0];
      } catch (error) {
        // An overlap or a slot filled meanwhile: a 409 like a full slot.
        if (!['23P01', '23514'].includes((error as { code?: string }).code ?? '')) throw error;
      }
    }
    // A place taken that filled the slot, or a booking refused, leaves the slot seen full.
    if (!made?.booking_id || made.now_full) full.add(slotId);
    if (made?.booking_id) return { id: made.booking_id };
    return reply.code(409).send({ places: await column(eventId, slotId) });
  });
  return {
    app,
    forget: () => full.clear(),
    close: async () => {
      await app.close();
      await pool.end();
    },
  };
}
