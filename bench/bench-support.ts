import type { FastifyInstance } from 'fastify';
import type { Db } from '../apps/server/src/db/database';

// What the benchmarks share. They run the real app through inject(), on their own databases.

export const PASSWORD = 'benchmark password';

/** Signs a school up, opens its verify link and logs its admin in, all through the API. */
export async function adminToken(app: FastifyInstance, db: Db, email: string): Promise<string> {
  const signup = await app.inject({
    method: 'POST',
    url: '/api/site/signup',
    payload: {
      subscriberName: 'Bench Academy',
      firstName: 'Ben',
      lastName: 'Marks',
      email,
      password: PASSWORD,
    },
  });
  if (signup.statusCode !== 200) throw new Error(`signup failed: ${signup.body}`);
  const mail = await db
    .selectFrom('mail_outbox')
    .select('links')
    .where('to_address', '=', email)
    .executeTakeFirstOrThrow();
  const token = new URL(mail.links[0] ?? '').searchParams.get('token');
  const verify = await app.inject({ method: 'GET', url: `/api/site/verify-school?token=${token}` });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  const login = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { email, password: PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return (login.json() as { accessToken: string }).accessToken;
}
