import { expect } from 'vitest';
import { linkFromMailboxApi, PASSWORD, schoolThroughApi, uniqueEmail } from './journeys';

// A small school set up through the API for the accessibility and keyboard journeys: one person of each
// role with a password, a parent-teacher evening (16:00–18:00, 10-minute slots, two teachers) open to a
// family of two children, and the family's invitation mail sent.

export type Person = { id: number; email: string; name: string };

async function ok<T>(response: Promise<Response>): Promise<T> {
  const res = await response;
  const body = await res.text();
  expect(res.status, body).toBe(200);
  return JSON.parse(body) as T;
}

/** A calendar date `days` from today (UTC): far enough ahead that the school's zone does not move it. */
export const daysAhead = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export async function smallSchool(baseUrl: string, label: string) {
  const admin = await schoolThroughApi(baseUrl, `Access ${label} School`);
  const post = <T>(path: string, body: unknown) => ok<T>(admin.post(path, body));
  const person = async (
    kind: 'teacher' | 'parent' | 'student',
    body: Record<string, unknown>,
  ): Promise<Person> => {
    const email = uniqueEmail(kind);
    const { id } = await post<{ id: number }>(`users/create-${kind}`, { sendInvite: false, ...body, email });
    return { id, email, name: `${body.firstName} ${body.lastName}` };
  };
  /** Follows the invitation mail as the password page does; returns the mail's link (the invitation). */
  const setPassword = async (email: string, path: string): Promise<string> => {
    const link = await linkFromMailboxApi(baseUrl, email);
    const token = new URL(link).searchParams.get('token');
    expect(token).toBeTruthy();
    await ok(
      fetch(`${baseUrl}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, password: PASSWORD }),
      }),
    );
    return link;
  };

  const maths = await post<{ id: number }>('subjects/create', { name: 'Maths' });
  const art = await post<{ id: number }>('subjects/create', { name: 'Art' });
  const teacher = await person('teacher', {
    title: 'Ms',
    firstName: 'Mina',
    lastName: 'Hall',
    subjectIds: [maths.id],
    sendInvite: true,
  });
  const artTeacher = await person('teacher', {
    title: 'Mr',
    firstName: 'Arlo',
    lastName: 'Vance',
    subjectIds: [art.id],
  });
  await setPassword(teacher.email, 'users/set-teacher-password');
  const parent = await person('parent', { firstName: 'Pat', lastName: 'Rowe', sendInvite: true });
  const invitation = await setPassword(parent.email, 'users/set-new-password');
  const taught = [
    { subjectId: maths.id, teacherId: teacher.id },
    { subjectId: art.id, teacherId: artTeacher.id },
  ];
  const child = await person('student', {
    firstName: 'Rosa',
    lastName: 'Rowe',
    parentIds: [parent.id],
    subjects: taught,
    sendInvite: true,
  });
  await setPassword(child.email, 'users/set-new-password');

  const { eventTypes } = await ok<{ eventTypes: Array<{ id: number; groupInt: number }> }>(
    admin.get('events/index'),
  );
  const eventName = `Autumn consultations ${label}`;
  const { id: eventId } = await post<{ id: number }>('events/create', {
    name: eventName,
    eventTypeId: eventTypes.find((type) => type.groupInt === 1)?.id,
  });
  await post(`events/update?id=${eventId}`, { status: 1, slotMinutes: 10 });
  const date = daysAhead(5);
  await post(`events/create-section?eventId=${eventId}`, {
    date,
    start: '16:00',
    end: '18:00',
    location: 'Main hall',
    teachers: [{ teacherId: teacher.id }, { teacherId: artTeacher.id }],
  });
  await post(`events/add-recipients?eventId=${eventId}&saveme=1`, { userIds: [parent.id, child.id] });
  await post(`message-types/send?eventId=${eventId}`, { messageTypeName: 'inviteToBook' });
  const { event } = await ok<{ event: { bookingPath: string } }>(admin.get(`events/view?id=${eventId}`));
  const bookingLink = await linkFromMailboxApi(baseUrl, parent.email, event.bookingPath);
  /** Another family of the school: a parent and their child, each with a password. */
  const addFamily = async (lastName: string) => {
    const other = await person('parent', { firstName: 'Sam', lastName, sendInvite: true });
    await setPassword(other.email, 'users/set-new-password');
    const kid = await person('student', {
      firstName: 'Kit',
      lastName,
      parentIds: [other.id],
      subjects: taught,
    });
    return { parent: other, child: kid };
  };
  return {
    admin,
    addFamily,
    teacher,
    artTeacher,
    parent,
    child,
    invitation,
    eventId,
    eventName,
    date,
    bookingPath: event.bookingPath,
    bookingLink,
  };
}
