import { AUDIT_CSV_COLUMNS } from '@parley/domain/audit';
import { ID_MAX } from '@parley/domain/fields';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Evening, evening } from '../booking/booking-helpers';
import { type Api, expectStatus } from '../directory/directory-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { entriesOf, from, STAFF_AGENT } from './audit-helpers';

// Who may read the audit trail (admins of the school, nobody else: 404 for another school's ids, exactly
// like a missing one) and its CSV export (every entry, or a person's or event's; quoted, and no cell a
// spreadsheet would run as a formula).

let t: TestApp;
let e: Evening;
let other: Evening;
let staff: Api;
/** A parent whose name and the browser of the admin who renamed them are hostile to spreadsheets. */
let hostileId: number;
const HOSTILE_FIRST = '=HYPERLINK("http://evil.example","x")';
const HOSTILE_LAST = 'Doe, "Jr"';
const HOSTILE_AGENT = '@SUM(1+1) Mozilla/5.0';

beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true, schoolName: 'First School' });
  other = await evening(t, { quick: true, schoolName: 'Second School' });
  staff = from(t.app);
  const { id } = expectStatus<{ id: number }>(
    await staff.post('users/create-parent', e.admin.token, {
      email: `hostile.${Date.now()}@example.org`,
      firstName: 'Plain',
      lastName: 'Name',
      sendInvite: false,
    }),
    200,
  );
  hostileId = id;
  expectStatus(
    await from(t.app, '198.51.100.9', HOSTILE_AGENT).post(`users/update-parent?id=${id}`, e.admin.token, {
      firstName: HOSTILE_FIRST,
      lastName: HOSTILE_LAST,
    }),
    200,
  );
});
afterAll(() => t.close());

const paths = () => [
  `audit/person?id=${e.parent.id}`,
  `audit/event?id=${e.eventId}`,
  'audit/export',
  `audit/export?personId=${e.parent.id}`,
];

describe('who may read the audit trail', () => {
  it('a teacher and a parent of the school get 403; no session gets 401', async () => {
    for (const path of paths()) {
      expect((await staff.get(path, e.teachers[0]?.token)).statusCode, path).toBe(403);
      expect((await staff.get(path, e.parent.token)).statusCode, path).toBe(403);
      expect((await staff.get(path)).statusCode, path).toBe(401);
    }
  });

  it('another school’s admin gets 404 for this school’s person and event, and none of its entries', async () => {
    expect((await entriesOf(staff, e.admin.token, 'person', e.parent.id)).length).toBeGreaterThan(0);
    for (const path of [
      `audit/person?id=${e.parent.id}`,
      `audit/event?id=${e.eventId}`,
      `audit/export?personId=${e.parent.id}`,
      `audit/export?eventId=${e.eventId}`,
    ]) {
      const res = await staff.get(path, other.admin.token);
      expect(res.statusCode, path).toBe(404);
      expect(res.body).not.toContain(e.parent.email);
    }
    const theirs = await staff.get('audit/export', other.admin.token);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).toContain(other.parent.email); // their own people's creation
    for (const leak of [e.parent.email, e.admin.email, 'First School', 'HYPERLINK'])
      expect(theirs.body).not.toContain(leak);
  });

  it('an id nobody holds is 404; a malformed one 422 naming the field', async () => {
    expect((await staff.get(`audit/person?id=${ID_MAX}`, e.admin.token)).statusCode).toBe(404);
    expect((await staff.get(`audit/event?id=${ID_MAX}`, e.admin.token)).statusCode).toBe(404);
    const bad = await staff.get('audit/person?id=abc', e.admin.token);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('id');
    expect((await staff.get('audit/export?eventId=0', e.admin.token)).statusCode).toBe(422);
  });

  it('a person of the school with no entries yet: an empty list, not 404', async () => {
    expect(await entriesOf(staff, e.admin.token, 'person', e.admin.id)).toEqual([]);
  });
});

describe('the CSV export', () => {
  const parse = (body: string) => {
    expect(body.startsWith('\uFEFF')).toBe(true);
    const parsed = Papa.parse<string[]>(body.slice(1), { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    return parsed.data;
  };

  it('every entry of the school, newest first, one line each, as the screens list them', async () => {
    const res = await staff.get('audit/export', e.admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="activity-school.csv"');
    const [header, ...rows] = parse(res.body);
    expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
    const total = await t.db
      .selectFrom('audit_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('school_id', '=', e.schoolId)
      .executeTakeFirstOrThrow();
    expect(rows).toHaveLength(Number(total.n));
    const onScreen = await entriesOf(staff, e.admin.token, 'person', e.parent.id);
    const parentRows = rows.filter((row) => row[10]?.split(' ').includes(String(e.parent.id)));
    expect(parentRows.map((row) => row[5])).toEqual(onScreen.map((entry) => entry.summary));
    const first = onScreen.at(-1);
    const line = parentRows.at(-1) ?? [];
    expect(line[1]).toBe(first?.at);
    expect(line[2]).toBe(first?.actor.name);
    expect(line[3]).toBe(first?.actor.email);
    expect(line[6]).toBe(first?.subject.type);
    expect(line[7]).toBe(String(first?.subject.id));
    expect(JSON.parse(line[11] ?? '')).toEqual(first?.detail);
  });

  it('quotes commas and quotes, and defuses cells that start with = + - @', async () => {
    const res = await staff.get(`audit/export?personId=${hostileId}`, e.admin.token);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="activity-person-${hostileId}.csv"`,
    );
    const [, edited, created] = parse(res.body);
    expect(created?.[4]).toBe('Added a person');
    // Named as they were before the edit; the new name appears in what changed, in quotes.
    expect(edited?.[8]).toMatch(/^Plain Name \(hostile\.\d+@example\.org\)$/);
    expect(edited?.[5]).toContain(`first name Plain → ${HOSTILE_FIRST}`);
    expect(edited?.[5]).toContain(`last name Name → ${HOSTILE_LAST}`);
    // The browser started with "@": the cell is prefixed so a spreadsheet shows it as text.
    expect(edited?.[13]).toBe(`'${HOSTILE_AGENT}`);
    expect(edited?.[12]).toBe('198.51.100.9');
    expect(created?.[13]).toBe(STAFF_AGENT);
    for (const row of [edited ?? [], created ?? []])
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  it('a name starting with "=" is defused wherever it lands (the subject of a later change)', async () => {
    expectStatus(await staff.post(`users/update-parent?id=${hostileId}`, e.admin.token, { status: 0 }), 200);
    const res = await staff.get(`audit/export?personId=${hostileId}`, e.admin.token);
    const [, latest] = parse(res.body);
    expect(latest?.[8]).toMatch(/^'=HYPERLINK\("http:\/\/evil\.example","x"\) Doe, "Jr" \(/);
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""x"") Doe, ""Jr"" (`);
  });

  it('filtered by event: that event’s entries only; by person and event: both', async () => {
    const [, ...rows] = parse((await staff.get(`audit/export?eventId=${e.eventId}`, e.admin.token)).body);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row[9] === String(e.eventId))).toBe(true);
    const both = await staff.get(`audit/export?eventId=${e.eventId}&personId=${hostileId}`, e.admin.token);
    expect(both.statusCode).toBe(200);
    expect(parse(both.body)).toHaveLength(1); // the header: that person has no entry in the event
  });
});
