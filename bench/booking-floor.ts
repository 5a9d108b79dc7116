// The floor of the booking rush (issue 14, decision 009 session 18): the least work PostgreSQL must do for
// a booking that keeps decision 009's rules, written bare (Fastify + pg, no sessions, no validation, no
// answer beyond an id or the slot's column), so the bench can say how far the app is from it on the same
// host and load. What it keeps, because the rules need it:
// - the event share-locked and the family's row locked (a family's changes take turns: per-child rules);
// - the family's holdings read with the slot asked for (the per-child limit and travel gap need them);
// - the place taken by a conditional UPDATE and the confirmation mail written in the same statement and
//   transaction (exactly once), the mail rendered to about the app's size;
// - the booking row with all its constraints, indexes and foreign keys (capacity, overlaps, once per
//   teacher, idempotency);
// - as the app's role under row-level security, in the school's scope (decision 016);
// - a slot this process last saw full (a place taken or lost) read first without a transaction, as the
//   app's hint does (full-slot-hints.ts).
// What it leaves out costs the app PostgreSQL work too, so the floor is below anything that answers as the
// spec asks: the answer's labels and bookings, the event's recipient list and closing time, the party's
// children, the grid a loser gets (places only here), the push rows.
import Fastify from 'fastify';
import pg from 'pg';
import { asAppRole } from './bench-support';

const LOCK = `select e.version from events e join users u on u.id = $3 and u.school_id = $1
  where e.school_id = $1 and e.id = $2 for share of e for no key update of u`;
const HOLDINGS = `select true as held, b.id, b.teacher_id, b.starts_at, b.ends_at, b.student_id
  from bookings b where b.school_id = $1 and b.event_id = $2 and b.parent_id = $3 and b.status = 'booked'
  union all
  select false, s.id, s.teacher_id, s.starts_at, s.ends_at, null from slots s
  where s.school_id = $1 and s.event_id = $2 and s.id = $4 and s.starts_at > now()`;
const TAKE_AND_MAIL = `with taken as (
    update slots s set booked_count = s.booked_count + 1
    where s.school_id = $1 and s.id = $2 and s.booked_count < s.capacity
    returning s.id, s.booked_count >= s.capacity as now_full),
  mail as (
    insert into mail_outbox (school_id, to_address, subject, text_body, html_body, attachments)
    select $1, $3, $4, $5, $6, $7::jsonb where exists (select from taken) returning id)
  select id, now_full from taken`;
const INSERT = `insert into bookings (school_id, event_id, slot_id, teacher_id, starts_at, ends_at, parent_id,
    student_id, booked_by) values ($1, $2, $3, $4, $5, $6, $7, $8, $7) returning id`;
const COLUMN = `select id, capacity, booked_count from slots where school_id = $1 and event_id = $2
  and teacher_id = (select teacher_id from slots where id = $3) and starts_at > now()`;

type Row = { held: boolean; id: number; teacher_id: number; starts_at: Date; ends_at: Date };

/**
 * A confirmation of the app's size (its text 0.4 KB, HTML 1 KB, the .ics attachment 1.1 KB as JSON, so the
 * row is compressed and moved out of line as the app's is), different for each booking.
 */
function mail(parentId: number, slot: Row) {
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

export async function serveFloor(databaseUrl: string, schoolId: number) {
  // The app's pool size (decision 027) and its role and scope (decision 016).
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    options: `-c lock_timeout=3000 -c statement_timeout=10000 -c random_page_cost=1.1 ${asAppRole(schoolId)}`,
  });
  const full = new Set<number>();
  const column = async (eventId: number, slotId: number) =>
    (await pool.query({ name: 'column', text: COLUMN, values: [schoolId, eventId, slotId] })).rows as Array<{
      id: number;
      capacity: number;
      booked_count: number;
    }>;
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
    const client = await pool.connect();
    let id: number | undefined;
    try {
      await client.query('begin');
      await client.query({ name: 'lock', text: LOCK, values: [schoolId, eventId, parentId] });
      const { rows } = await client.query<Row>({
        name: 'holdings',
        text: HOLDINGS,
        values: [schoolId, eventId, parentId, slotId],
      });
      const slot = rows.find((row) => !row.held);
      const taken = slot
        ? await client.query({
            name: 'take',
            text: TAKE_AND_MAIL,
            values: [schoolId, slotId, ...mail(parentId, slot)],
          })
        : { rows: [] };
      if (taken.rows[0]?.now_full) full.add(slotId);
      if (slot && taken.rows.length > 0) {
        const inserted = await client.query({
          name: 'insert',
          text: INSERT,
          values: [
            schoolId,
            eventId,
            slotId,
            slot.teacher_id,
            slot.starts_at,
            slot.ends_at,
            parentId,
            studentId,
          ],
        });
        id = inserted.rows[0]?.id;
      }
      await client.query(id === undefined ? 'rollback' : 'commit');
    } catch (error) {
      await client.query('rollback');
      if ((error as { code?: string }).code !== '23P01') throw error;
    } finally {
      client.release();
    }
    if (id !== undefined) return { id };
    full.add(slotId);
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
