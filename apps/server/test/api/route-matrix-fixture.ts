import { sql } from 'kysely';
import { hashToken } from '../../src/lib/tokens';
import { issueEventLinks, issueToken } from '../../src/modules/tokens/tokens.repository';
import { sessionFor } from '../booking/booking-helpers';
import { type Api, addPerson, addSubject, api, expectStatus } from '../directory/directory-helpers';
import { createEvent, createSection, daysAhead, insertBooking } from '../events/events-helpers';
import { PASSWORD, uniqueIp } from '../factories';
import { tokenFromLastMail } from '../mailbox';
import type { TestApp } from '../test-app';
import type { Caller, Fresh, SchoolA } from './route-rules';

// The two schools of the route matrix: the same people and events in each, every text of school A carrying
// the marker "Alphmark" and of school B "Betamark", so that a byte of one in an answer to the other shows.

export const MARKS = { A: 'Alphmark', B: 'Betamark' } as const;
type Mark = (typeof MARKS)[keyof typeof MARKS];

let serial = 0;
const emailOf = (mark: Mark, who: string) => `${who}.${mark.toLowerCase()}.${++serial}@example.org`;

/** One school: its people (with sessions), a parent-teacher evening and a graduation, bookings and a ticket. */
export type School = Awaited<ReturnType<typeof seedSchool>>;

async function seedSchool(t: TestApp, mark: Mark) {
  const http = api(t.app);
  const adminEmail = emailOf(mark, 'admin');
  expectStatus(
    await t.app.inject({
      method: 'POST',
      url: '/api/site/signup',
      remoteAddress: uniqueIp(),
      payload: {
        subscriberName: `${mark} Academy`,
        firstName: 'Ada',
        lastName: `${mark} Admin`,
        email: adminEmail,
        password: PASSWORD,
      },
    }),
    200,
  );
  const { token: verifyToken } = await tokenFromLastMail(t.db, adminEmail);
  expectStatus(await http.get(`site/verify-school?token=${verifyToken}`), 200);
  const admin = await t.db
    .selectFrom('users')
    .select(['id', 'school_id'])
    .where('email', '=', adminEmail)
    .executeTakeFirstOrThrow();
  const schoolId = admin.school_id;
  const adminToken = await sessionFor(t, admin.id);
  const types = await t.db
    .selectFrom('event_types')
    .select(['id', 'group_int'])
    .where('school_id', '=', schoolId)
    .execute();
  const typeOf = (group: number) => types.find((type) => type.group_int === group)?.id ?? 0;

  const person = (role: 'teacher' | 'parent' | 'student', who: string, body: Record<string, unknown> = {}) =>
    addPerson(t, adminToken, role, {
      firstName: who,
      lastName: `${mark} ${role}`,
      email: emailOf(mark, who.toLowerCase()),
      sendInvite: false,
      ...body,
    });
  const subjects: number[] = [];
  for (const name of ['Maths', 'English', 'Science', 'Art', 'Music'])
    subjects.push(await addSubject(t, adminToken, `${mark} ${name}`));
  const teachers: number[] = [];
  for (const [index, subjectId] of subjects.entries())
    teachers.push((await person('teacher', `Tess${index + 1}`, { subjectIds: [subjectId] })).id);
  const parent = await person('parent', 'Pat');
  const student = await person('student', 'Sam', {
    parentIds: [parent.id],
    subjects: subjects.map((subjectId, index) => ({ subjectId, teacherId: teachers[index] ?? null })),
  });
  const sibling = await person('student', 'Sid', { parentIds: [parent.id] });
  // A teacher who is also a parent: one account, two roles.
  const teacherParent = await person('teacher', 'Terry', { subjectIds: [subjects[0]] });
  const ownChild = await person('student', 'Tia');
  await person('parent', 'Terry', { email: teacherParent.email, studentIds: [ownChild.id] });
  const otherChild = await person('student', 'Oli');
  const otherParent = await person('parent', 'Olga', { studentIds: [otherChild.id] });
  const pending = await person('parent', 'Penny', { sendInvite: true });

  // The evening: 16:00–20:00 in 10-minute slots with five teachers, for the parent and the teacher-parent.
  const eveningId = await createEvent(http, adminToken, `${mark} consultations`, typeOf(1));
  expectStatus(
    await http.post(`events/update?id=${eveningId}`, adminToken, {
      slotMinutes: 10,
      bookingPageMessage: `${mark} welcome`,
    }),
    200,
  );
  const section = await createSection(http, adminToken, eveningId, {
    date: daysAhead(7),
    start: '16:00',
    end: '20:00',
    location: `${mark} hall`,
    teachers: teachers.map((teacherId) => ({ teacherId })),
  });
  await addRecipients(http, adminToken, eveningId, [parent.id, teacherParent.id]);
  const slots = await t.db
    .selectFrom('slots')
    .select(['id', 'teacher_id'])
    .where('event_id', '=', eveningId)
    .orderBy('starts_at')
    .orderBy('id')
    .execute();
  /** The evening's slots by teacher, in time order. */
  const grid = teachers.map((teacherId) =>
    slots.filter((slot) => slot.teacher_id === teacherId).map((s) => s.id),
  );
  const firstSlot = grid[0]?.[0] ?? 0;
  const evening = expectStatus<{ created: number[] }>(
    await http.post(`events/update-slot-by-admin?id=${eveningId}`, adminToken, {
      slotId: firstSlot,
      parentId: parent.id,
      studentId: student.id,
      subjectId: subjects[0],
    }),
    200,
  );

  // The graduation: gowns and a guest; T1 scans its tickets.
  const ceremonyId = await createEvent(http, adminToken, `${mark} graduation`, typeOf(3));
  expectStatus(
    await http.post(`events/update?id=${ceremonyId}`, adminToken, {
      slotMinutes: 120,
      gownSizes: ['S', 'M'],
      guestAllowance: 2,
      bookingPageMessage: `${mark} ceremony`,
    }),
    200,
  );
  await createSection(http, adminToken, ceremonyId, {
    date: daysAhead(8),
    start: '18:00',
    end: '20:00',
    location: `${mark} theatre`,
  });
  await addRecipients(http, adminToken, ceremonyId, [parent.id]);
  expectStatus(
    await http.post(`events/update-can-scan-user-ids?id=${ceremonyId}`, adminToken, {
      canScanUserIds: [teachers[0]],
    }),
    200,
  );
  const ceremonySlot = await t.db
    .selectFrom('slots')
    .select('id')
    .where('event_id', '=', ceremonyId)
    .executeTakeFirstOrThrow();
  const ceremony = expectStatus<{ created: number[] }>(
    await http.post(`events/update-slot-by-admin?id=${ceremonyId}`, adminToken, {
      slotId: ceremonySlot.id,
      parentId: parent.id,
      studentId: student.id,
      guests: 1,
      gownSize: 'S',
    }),
    200,
  );
  const link = (await issueEventLinks(t.db, { schoolId, eventId: eveningId, userIds: [parent.id] })).get(
    parent.id,
  );
  const code = await t.db
    .selectFrom('events')
    .select('code')
    .where('id', '=', eveningId)
    .executeTakeFirstOrThrow();
  return {
    mark,
    http,
    schoolId,
    adminId: admin.id,
    adminEmail,
    adminToken,
    verifyToken,
    parentTeacherTypeId: typeOf(1),
    subjects,
    teachers,
    parent,
    student,
    sibling,
    teacherParent,
    otherParent,
    pending,
    evening: {
      id: eveningId,
      code: code.code,
      sectionId: section.id,
      slotId: firstSlot,
      bookingId: evening.created[0] ?? 0,
      grid,
    },
    ceremony: { id: ceremonyId, bookingId: ceremony.created[0] ?? 0 },
    link: link ?? '',
  };
}

async function addRecipients(http: Api, token: string, eventId: number, userIds: number[]) {
  expectStatus(await http.post(`events/add-recipients?eventId=${eventId}&saveme=1`, token, { userIds }), 200);
}

/** How each caller authenticates: a bearer session or a personal link (anonymous: nothing). */
type Credential = { kind: 'session'; userId: number; token: string } | { kind: 'link'; token: string };

export async function seedMatrix(t: TestApp) {
  const a = await seedSchool(t, MARKS.A);
  const b = await seedSchool(t, MARKS.B);
  const session = async (userId: number): Promise<Credential> => ({
    kind: 'session',
    userId,
    token: await sessionFor(t, userId),
  });
  const credentials: Partial<Record<Caller, Credential>> = {
    admin: { kind: 'session', userId: a.adminId, token: a.adminToken },
    teacher: await session(a.teachers[0] ?? 0),
    parent: await session(a.parent.id),
    student: await session(a.student.id),
    teacherParent: await session(a.teacherParent.id),
    otherParent: await session(a.otherParent.id),
    link: { kind: 'link', token: a.link },
    bAdmin: { kind: 'session', userId: b.adminId, token: b.adminToken },
    bTeacher: await session(b.teachers[0] ?? 0),
    bParent: await session(b.parent.id),
    bStudent: await session(b.student.id),
    bLink: { kind: 'link', token: b.link },
  };
  // What the evening held once seeded: after each route its new bookings go (the database gives their
  // places back).
  const firstNewBooking =
    ((
      await t.db
        .selectFrom('bookings')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0) + 1;

  /** The student's own ceremony ticket, as it is now. */
  const ceremonyTicket = () =>
    t.db
      .selectFrom('tickets')
      .select(['id', 'code'])
      .where('event_id', '=', a.ceremony.id)
      .where('user_id', '=', a.student.id)
      .where('guest_index', '=', 0)
      .where('status', '=', 'valid')
      .executeTakeFirstOrThrow();
  const ticketCode = async () => (await ceremonyTicket()).code;
  const ticketRowId = async () => (await ceremonyTicket()).id;

  /** A's newest job (a message to the evening's recipients), sent by A's admin the first time it is asked for. */
  const jobId = async () => {
    const existing = await t.db
      .selectFrom('jobs')
      .select('id')
      .where('school_id', '=', a.schoolId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (existing) return existing.id;
    await t.app.inject({
      method: 'POST',
      url: `/api/message-types/send?eventId=${a.evening.id}`,
      remoteAddress: uniqueIp(),
      headers: headersOf('admin'),
      payload: { messageTypeName: 'inviteToBook', audience: 'all' },
    });
    return jobId();
  };

  /** A's newest invoice (billing, issue 15), issued through A's admin the first time it is asked for. */
  const invoiceId = async () => {
    const existing = await t.db
      .selectFrom('invoices')
      .select('id')
      .where('school_id', '=', a.schoolId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (existing) return existing.id;
    const call = (url: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url, remoteAddress: uniqueIp(), headers: headersOf('admin'), payload });
    await call('/api/billing/choose-plan', { planId: 'small' });
    await call('/api/billing/update-details', {
      billingName: null,
      address: '1 Matrix Road',
      taxNumber: null,
      financeEmail: 'finance@example.org',
    });
    const issued = await call('/api/billing/request-invoice', { poNumber: 'PO-MATRIX' });
    return (issued.json() as { id: number }).id;
  };

  // The makers' own admin session (a caller's may be ended by the route under test: logout, a new password).
  let makerToken = await sessionFor(t, a.adminId);
  const adminToken = async () => {
    const live = await t.db
      .selectFrom('auth_tokens')
      .select('id')
      .where('token_hash', '=', hashToken(makerToken))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (!live) makerToken = await sessionFor(t, a.adminId);
    return makerToken;
  };
  let handed = 0;
  let made = 0;
  const spare = (prefix: string) => `${prefix}${++made}`;
  const makers: Fresh = {
    event: async () =>
      createEvent(a.http, await adminToken(), `${MARKS.A} spare ${spare('event')}`, a.parentTeacherTypeId),
    section: async () => {
      const eventId = await makers.event();
      const { id } = await createSection(a.http, await adminToken(), eventId, {
        date: daysAhead(30),
        start: '09:00',
        end: '10:00',
      });
      return { eventId, sectionId: id };
    },
    person: async (role) =>
      (
        await addPerson(t, await adminToken(), role, {
          firstName: 'Spare',
          lastName: `${MARKS.A} ${spare(role)}`,
          email: emailOf(MARKS.A, spare(role)),
          sendInvite: false,
        })
      ).id,
    admin: async () =>
      expectStatus<{ id: number }>(
        await a.http.post('users/invite-admin', await adminToken(), {
          email: emailOf(MARKS.A, spare('admin')),
          firstName: 'Spare',
          lastName: `${MARKS.A} admin`,
        }),
        200,
      ).id,
    subject: async () => addSubject(t, await adminToken(), `${MARKS.A} ${spare('subject')}`),
    recipient: async () => {
      const id = await makers.person('parent');
      await addRecipients(a.http, await adminToken(), a.evening.id, [id]);
      return id;
    },
    scanner: async () => {
      const id = await makers.person('teacher');
      expectStatus(
        await a.http.post(`events/update-can-scan-user-ids?id=${a.evening.id}`, await adminToken(), {
          canScanUserIds: [id],
        }),
        200,
      );
      return id;
    },
    // T2–T5 in turn (the student already sees T1), each at a later time: no teacher twice, no overlap.
    slot: async () => {
      const n = handed++;
      return a.evening.grid[1 + (n % 4)]?.[1 + n] ?? 0;
    },
    booking: async () =>
      insertBooking(t.db, await makers.slot(), { parentId: a.parent.id, studentId: a.student.id }),
    scannedTicket: async () => {
      const code = await ticketCode();
      await t.db
        .updateTable('tickets')
        .set({ scanned_at: sql`now()`, scanned_by: a.adminId })
        .where('code', '=', code)
        .execute();
      return code;
    },
    inviteToken: async (role) => {
      const email = emailOf(MARKS.A, spare(`invited-${role}`));
      const names = { firstName: 'Ivy', lastName: `${MARKS.A} invited` };
      if (role === 'admin')
        expectStatus(await a.http.post('users/invite-admin', await adminToken(), { email, ...names }), 200);
      else await addPerson(t, await adminToken(), role, { email, ...names, sendInvite: true });
      return (await tokenFromLastMail(t.db, email)).token;
    },
    resetToken: async () =>
      issueToken(t.db, { userId: await makers.person('parent'), schoolId: a.schoolId, kind: 'reset' }),
    adminSession: async () => {
      const token = await sessionFor(t, a.adminId);
      return (
        await t.db
          .selectFrom('auth_tokens')
          .select('id')
          .where('token_hash', '=', hashToken(token))
          .executeTakeFirstOrThrow()
      ).id;
    },
    linkHolder: async () => {
      const id = await makers.person('parent');
      await issueEventLinks(t.db, { schoolId: a.schoolId, eventId: a.evening.id, userIds: [id] });
      return id;
    },
  };

  /** Fresh objects for one route: each kind made on first use, made again after a 2xx answer. */
  function freshForRoute(): { fresh: Fresh; spend(): void } {
    const made = new Map<string, Promise<unknown>>();
    const memo =
      <A extends unknown[], R>(name: string, make: (...args: A) => Promise<R>) =>
      (...args: A): Promise<R> => {
        const id = `${name}:${args.join(',')}`;
        if (!made.has(id)) made.set(id, make(...args));
        return made.get(id) as Promise<R>;
      };
    const fresh = Object.fromEntries(
      Object.entries(makers).map(([name, make]) => [
        name,
        memo(name, make as (...args: unknown[]) => Promise<unknown>),
      ]),
    ) as Fresh;
    return { fresh, spend: () => made.clear() };
  }
  const invites = new Map<string, Promise<string>>();
  const once: SchoolA['once'] = {
    inviteToken: (role) => {
      if (!invites.has(role)) invites.set(role, makers.inviteToken(role));
      return invites.get(role) as Promise<string>;
    },
  };

  function headersOf(caller: Caller): Record<string, string> {
    const credential = credentials[caller];
    if (!credential) return {};
    return credential.kind === 'session'
      ? { authorization: `Bearer ${credential.token}` }
      : { 'x-booking-link': credential.token };
  }

  const schoolA = (fresh: Fresh): SchoolA => ({
    schoolId: a.schoolId,
    adminId: a.adminId,
    adminEmail: a.adminEmail,
    teacherId: a.teachers[0] ?? 0,
    parentId: a.parent.id,
    parentEmail: a.parent.email,
    studentId: a.student.id,
    siblingId: a.sibling.id,
    teacherParentId: a.teacherParent.id,
    otherParentId: a.otherParent.id,
    pendingEmail: a.pending.email,
    subjectId: a.subjects[0] ?? 0,
    parentTeacherTypeId: a.parentTeacherTypeId,
    usedVerifyToken: a.verifyToken,
    evening: a.evening,
    ceremony: a.ceremony,
    ticketCode,
    ticketRowId,
    invoiceId,
    jobId,
    fresh,
    once,
    callAs: async (caller, method, path, body) =>
      (
        await t.app.inject({
          method,
          url: path,
          remoteAddress: uniqueIp(),
          headers: headersOf(caller),
          ...(body !== undefined && { payload: body as Record<string, unknown> }),
        })
      ).statusCode,
  });

  /**
   * After each route: bookings it made are cancelled (their tickets void and their places come back with
   * them), so every route meets the evening as seeded; callers whose session or link a call ended get
   * a new one.
   */
  async function reset(): Promise<void> {
    handed = 0;
    await t.db
      .updateTable('bookings')
      .set({ status: 'cancelled', cancelled_at: sql`now()` })
      .where('id', '>=', firstNewBooking)
      .where('status', '=', 'booked')
      .where('school_id', 'in', [a.schoolId, b.schoolId])
      .execute();
    const held = Object.values(credentials).map((credential) => hashToken(credential.token));
    const live = new Set(
      (
        await t.db
          .selectFrom('auth_tokens')
          .select('token_hash')
          .where('token_hash', 'in', held)
          .where('used_at', 'is', null)
          .execute()
      ).map((row) => row.token_hash),
    );
    for (const [caller, credential] of Object.entries(credentials)) {
      if (live.has(hashToken(credential.token))) continue;
      if (credential.kind !== 'session')
        throw new Error(`the matrix's personal link of ${caller} was revoked`);
      credential.token = await sessionFor(t, credential.userId);
    }
  }

  /** What identifies a school in an answer: its marker word, event and ticket codes, its callers' tokens. */
  async function markers(school: 'A' | 'B'): Promise<string[]> {
    const id = school === 'A' ? a.schoolId : b.schoolId;
    const events = await t.db.selectFrom('events').select('code').where('school_id', '=', id).execute();
    const tickets = await t.db.selectFrom('tickets').select('code').where('school_id', '=', id).execute();
    const tokens = Object.entries(credentials)
      .filter(([caller]) => (school === 'A') === !caller.startsWith('b'))
      .map(([, credential]) => credential.token);
    return [
      MARKS[school].toLowerCase(),
      ...events.map((row) => row.code),
      ...tickets.map((row) => row.code),
      ...tokens,
    ];
  }

  return { a, b, schoolA, freshForRoute, reset, markers, headersOf };
}
