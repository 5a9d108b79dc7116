import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/database';
import { tokenFromLastMail } from './mailbox';

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}${++counter}.${Date.now()}@example.org`;

export const PASSWORD = 'correct horse battery';

/** Registers and verifies a school through the API; returns the admin's login answer. */
export async function registeredSchool(app: FastifyInstance, db: Db, name = 'Green Hill Academy') {
  const email = uniqueEmail('admin');
  const signup = await app.inject({
    method: 'POST',
    url: '/api/site/signup',
    payload: { subscriberName: name, firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD },
  });
  if (signup.statusCode !== 200) throw new Error(`signup failed: ${signup.body}`);
  const { token } = await tokenFromLastMail(db, email);
  await app.inject({ method: 'GET', url: `/api/site/verify-school?token=${token}` });
  const login = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { email, password: PASSWORD },
  });
  const body = login.json() as { accessToken: string; user: { id: number; schoolId: number } };
  return { email, accessToken: body.accessToken, userId: body.user.id, schoolId: body.user.schoolId };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
