import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickMember } from '../booking/booking-helpers';
import { type Api, addSubject, expectStatus, newSchool } from '../directory/directory-helpers';
import { uniqueEmail } from '../factories';
import { createTestApp, type TestApp } from '../test-app';
import { entriesOf, entryCount, expectWhoWhenWhere, from, withAction, writtenBy } from './audit-helpers';

// The audit trail of the directory (issue 11, decision 014): people added (one by one and in bulk), roles
// added and removed, people edited, deactivated and deleted, invitations sent; the entries outlive the
// person. Editing oneself is not recorded.

let t: TestApp;
let school: Awaited<ReturnType<typeof newSchool>>;
let staff: Api;
let maths: number;
let english: number;
const since = new Date();

beforeAll(async () => {
  t = await createTestApp();
  school = await newSchool(t, 'Directory Audit School');
  staff = from(t.app);
  maths = await addSubject(t, school.admin.token, 'Maths');
  english = await addSubject(t, school.admin.token, 'English');
});
afterAll(() => t.close());

const token = () => school.admin.token;
const personEntries = (id: number) => entriesOf(staff, token(), 'person', id);

async function createTeacher(body: Record<string, unknown> = {}) {
  const email = uniqueEmail('teacher');
  const { id } = expectStatus<{ id: number }>(
    await staff.post('users/create-teacher', token(), {
      email,
      firstName: 'Ann',
      lastName: 'Lee',
      subjectIds: [maths],
      sendInvite: false,
      ...body,
    }),
    200,
  );
  return { id, email };
}

describe('adding people and roles', () => {
  it('create-teacher: "person.created" with the role, who, when and from where', async () => {
    const teacher = await createTeacher();
    const [entry] = await personEntries(teacher.id);
    expect(entry).toMatchObject({
      action: 'person.created',
      subject: { type: 'person', id: teacher.id, label: `Ann Lee (${teacher.email})` },
      detail: { role: 'teacher' },
      people: [teacher.id],
      eventId: null,
    });
    expectWhoWhenWhere(entry, school.admin, since);
  });

  it('a role for someone already in the school (invite-admin for a teacher): "person.role_added"', async () => {
    const teacher = await createTeacher({ firstName: 'Raj', lastName: 'Patel' });
    expectStatus(
      await staff.post('users/invite-admin', token(), {
        email: teacher.email,
        firstName: 'Raj',
        lastName: 'Patel',
      }),
      200,
    );
    const [entry] = await personEntries(teacher.id);
    expect(entry).toMatchObject({ action: 'person.role_added', detail: { role: 'admin' } });
    expect(entry?.summary).toBe(`Made Raj Patel (${teacher.email}) admin`);
    expectWhoWhenWhere(entry, school.admin, since);
  });

  it('a bulk add records each person added, marked as such; its preview records nothing', async () => {
    const a = uniqueEmail('bulk');
    const b = uniqueEmail('bulk');
    const csv = [
      'Title,First name,Last name,Email,Subjects',
      `Mr,Tom,Hardy,${a},Maths`,
      `Ms,Eve,Stone,${b},`,
    ].join('\n');
    const count = await entryCount(t.db);
    expectStatus(await staff.post('users/bulk-add-teachers', token(), { csv }), 200);
    expect(await entryCount(t.db)).toBe(count);
    expectStatus(
      await staff.post('users/bulk-add-teachers?confirm=true&send_invite=false', token(), { csv }),
      200,
    );
    expect(await entryCount(t.db)).toBe(count + 2);
    const ids = await t.db.selectFrom('users').select(['id', 'email']).where('email', 'in', [a, b]).execute();
    for (const { id, email } of ids) {
      const [entry] = await personEntries(id);
      expect(entry).toMatchObject({ action: 'person.created', detail: { role: 'teacher', via: 'bulk-add' } });
      expect(entry?.subject.label).toContain(email);
      expectWhoWhenWhere(entry, school.admin, since);
    }
  });
});

describe('editing people', () => {
  it('update-teacher: "person.updated" with each changed field old → new, in the edit’s transaction', async () => {
    const teacher = await createTeacher();
    expectStatus(
      await staff.post(`users/update-teacher?id=${teacher.id}`, token(), {
        firstName: 'Anne',
        lastName: 'Lee',
        subjectIds: [english, maths],
      }),
      200,
    );
    const [entry] = await personEntries(teacher.id);
    expect(entry).toMatchObject({
      action: 'person.updated',
      // Named as they were before the edit.
      subject: { label: `Ann Lee (${teacher.email})` },
      detail: {
        changes: {
          firstName: { from: 'Ann', to: 'Anne' },
          subjectIds: {
            from: [maths],
            to: [maths, english].sort((x, y) => String(x).localeCompare(String(y))),
          },
        },
      },
    });
    // The last name was sent unchanged: not a change.
    expect(entry?.detail.changes).not.toHaveProperty('lastName');
    expectWhoWhenWhere(entry, school.admin, since);
    expect(await writtenBy(t.db, 'audit_entries', entry?.id ?? 0)).toBe(
      await writtenBy(t.db, 'users', teacher.id),
    );
  });

  it('deactivating a parent: status Active → Inactive', async () => {
    const parent = await quickMember(t, token(), 'parent');
    expectStatus(await staff.post(`users/update-parent?id=${parent.id}`, token(), { status: 0 }), 200);
    const [entry] = await personEntries(parent.id);
    expect(entry?.detail.changes).toEqual({ status: { from: 1, to: 0 } });
    expect(entry?.summary).toContain('status Active → Inactive');
  });

  it('an edit that changes nothing records nothing', async () => {
    const teacher = await createTeacher();
    const count = await entryCount(t.db);
    expectStatus(
      await staff.post(`users/update-teacher?id=${teacher.id}`, token(), { firstName: 'Ann' }),
      200,
    );
    expect(await entryCount(t.db)).toBe(count);
  });

  it('users/update by an admin of someone else is recorded; of oneself, or by a teacher of themselves, not', async () => {
    const teacher = await quickMember(t, token(), 'teacher', { firstName: 'Kim', lastName: 'Kent' });
    expectStatus(await staff.post(`users/update?id=${teacher.id}`, token(), { lastName: 'Kentish' }), 200);
    const [entry] = await personEntries(teacher.id);
    expect(entry).toMatchObject({
      action: 'person.updated',
      detail: { changes: { lastName: { from: 'Kent', to: 'Kentish' } } },
    });
    expectWhoWhenWhere(entry, school.admin, since);
    const count = await entryCount(t.db);
    expectStatus(await staff.post(`users/update?id=${school.admin.id}`, token(), { title: 'Dr' }), 200);
    expectStatus(
      await staff.post(`users/update?id=${teacher.id}`, teacher.token, { firstName: 'Kimberly' }),
      200,
    );
    expect(await entryCount(t.db)).toBe(count);
  });

  it('sending an invitation again: "message.sent" on the person', async () => {
    const teacher = await createTeacher();
    expectStatus(
      await staff.post('message-types/send', token(), {
        messageTypeName: 'sendTeacherInviteEmail',
        data: { userId: teacher.id },
      }),
      200,
    );
    const [entry] = await personEntries(teacher.id);
    expect(entry).toMatchObject({
      action: 'message.sent',
      detail: { message: 'invitation', role: 'teacher' },
    });
    expectWhoWhenWhere(entry, school.admin, since);
  });
});

describe('removing roles and people', () => {
  it('removing one of two roles: "person.role_removed"; removing the last: "person.deleted", kept after the person is gone', async () => {
    const teacher = await createTeacher({ firstName: 'Sam', lastName: 'Stone' });
    expectStatus(
      await staff.post('users/create-parent', token(), {
        email: teacher.email,
        firstName: 'Sam',
        lastName: 'Stone',
        sendInvite: false,
      }),
      200,
    );
    expectStatus(await staff.post(`users/delete?id=${teacher.id}&role=parent`, token()), 200);
    const [removed] = await personEntries(teacher.id);
    expect(removed).toMatchObject({ action: 'person.role_removed', detail: { role: 'parent' } });
    expectWhoWhenWhere(removed, school.admin, since);

    expectStatus(await staff.post(`users/delete?id=${teacher.id}&role=teacher`, token()), 200);
    // The account is gone; what was done to it is not.
    expect(
      await t.db.selectFrom('users').select('id').where('id', '=', teacher.id).executeTakeFirst(),
    ).toBeUndefined();
    const entries = await personEntries(teacher.id);
    expect(entries.map((entry) => entry.action)).toEqual([
      'person.deleted',
      'person.role_removed',
      'person.role_added',
      'person.created',
    ]);
    expect(entries[0]).toMatchObject({
      subject: { type: 'person', id: teacher.id, label: `Sam Stone (${teacher.email})` },
      detail: { role: 'teacher' },
    });
    expect(entries[0]?.detail.accountKept).toBeUndefined();
    expectWhoWhenWhere(entries[0], school.admin, since);
  });

  it('removing an admin is recorded as the admin role removed', async () => {
    const other = await quickMember(t, token(), 'teacher');
    expectStatus(
      await staff.post('users/invite-admin', token(), {
        email: other.email,
        firstName: other.firstName,
        lastName: other.lastName,
      }),
      200,
    );
    expectStatus(await staff.post('users/remove-admin', token(), { id: other.id }), 200);
    const [entry] = withAction(await personEntries(other.id), 'person.role_removed');
    expect(entry?.detail.role).toBe('admin');
    expectWhoWhenWhere(entry, school.admin, since);
  });
});
