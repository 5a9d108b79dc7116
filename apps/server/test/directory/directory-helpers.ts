import type { Role } from '@parley/domain/roles';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { bearer, PASSWORD, registeredSchool, uniqueEmail } from '../factories';
import { tokenFromLastMail } from '../mailbox';
import type { TestApp } from '../test-app';

// Shared fixtures of the school-directory tests: a thin client over app.inject, and people with sessions
// made the way a school makes them (create-* or invite-admin, then the invitation link's password page).

export type Api = {
  get(path: string, token?: string): Promise<LightMyRequestResponse>;
  post(path: string, token?: string, payload?: unknown): Promise<LightMyRequestResponse>;
};

/** Requests under /api/ with an optional bearer token; a payload is sent as JSON. */
export function api(app: FastifyInstance): Api {
  const headers = (token?: string) => (token ? bearer(token) : {});
  return {
    get: (path, token) => app.inject({ method: 'GET', url: `/api/${path}`, headers: headers(token) }),
    post: (path, token, payload) =>
      app.inject({
        method: 'POST',
        url: `/api/${path}`,
        headers: headers(token),
        ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
      }),
  };
}

let ip = 0;
/** Every login from its own address: the per-IP login limit never couples two tests. */
export function loginAs(app: FastifyInstance, email: string, password = PASSWORD) {
  ip += 1;
  return app.inject({
    method: 'POST',
    url: '/api/user/login',
    remoteAddress: `172.16.${(ip >> 8) & 255}.${ip & 255}`,
    payload: { email, password },
  });
}

/** The JSON body of an answer, after checking its status (the body is printed when the status is wrong). */
export function expectStatus<T = Record<string, unknown>>(
  response: LightMyRequestResponse,
  status: number,
): T {
  expect({ status: response.statusCode, body: response.json() }).toMatchObject({ status });
  return response.json() as T;
}

export type Person = { id: number; email: string; firstName: string; lastName: string };
export type Member = Person & { token: string };

const createPath = { teacher: 'create-teacher', parent: 'create-parent', student: 'create-student' } as const;
const passwordPath: Record<Role, string> = {
  admin: 'users/set-admin-password',
  teacher: 'users/set-teacher-password',
  parent: 'users/set-new-password',
  student: 'users/set-new-password',
};

let nameCounter = 0;
const nextName = () => {
  nameCounter += 1;
  return {
    firstName: `First${String.fromCharCode(97 + (nameCounter % 26))}`,
    lastName: `Last${nameCounter}`,
  };
};

/** POST users/create-{role} as the admin and return the new person (the body overrides the defaults). */
export async function addPerson(
  t: TestApp,
  adminToken: string,
  role: 'teacher' | 'parent' | 'student',
  body: Record<string, unknown> = {},
): Promise<Person> {
  const payload = { ...nextName(), email: uniqueEmail(role), ...body };
  const res = await api(t.app).post(`users/${createPath[role]}`, adminToken, payload);
  const created = expectStatus<{ id: number }>(res, 200);
  return {
    id: created.id,
    email: String(payload.email).toLowerCase(),
    firstName: String(payload.firstName),
    lastName: String(payload.lastName),
  };
}

/** Follows the newest invitation mail to the person: sets the password on the role's page, returns the session. */
export async function acceptInvitation(t: TestApp, email: string, role: Role): Promise<string> {
  const { token } = await tokenFromLastMail(t.db, email);
  const res = await api(t.app).post(passwordPath[role], undefined, { token, password: PASSWORD });
  return expectStatus<{ accessToken: string }>(res, 200).accessToken;
}

/** A teacher, parent or student of the admin's school, created through the API, with a live session. */
export async function addMember(
  t: TestApp,
  adminToken: string,
  role: 'teacher' | 'parent' | 'student',
  body: Record<string, unknown> = {},
): Promise<Member> {
  const person = await addPerson(t, adminToken, role, { ...body, sendInvite: true });
  return { ...person, token: await acceptInvitation(t, person.email, role) };
}

/** A second admin: invite-admin, then the invitation's password page. */
export async function addAdmin(t: TestApp, adminToken: string): Promise<Member> {
  const person = { ...nextName(), email: uniqueEmail('admin') };
  const res = await api(t.app).post('users/invite-admin', adminToken, person);
  const { id } = expectStatus<{ id: number }>(res, 200);
  return { id, ...person, token: await acceptInvitation(t, person.email, 'admin') };
}

/** A registered, verified school and its first admin. */
export async function newSchool(t: TestApp, name: string) {
  const school = await registeredSchool(t.app, t.db, name);
  return {
    schoolId: school.schoolId,
    admin: { id: school.userId, email: school.email, token: school.accessToken },
  };
}

/** POST subjects/create and return the new subject's id. */
export async function addSubject(t: TestApp, adminToken: string, name: string): Promise<number> {
  const res = await api(t.app).post('subjects/create', adminToken, { name });
  return expectStatus<{ id: number }>(res, 200).id;
}
