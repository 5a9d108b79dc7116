import { SERVER_TEXT } from '@parley/domain/messages';
import type { Role } from '@parley/domain/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_BACKOFF, MemoryStore } from '../../src/lib/rate-limiter';
import { createSchool, markSchoolVerified } from '../../src/modules/accounts/accounts.repository';
import { createUser, grantRole } from '../../src/modules/users/users.repository';
import { invite, login, registeredSchool, signedUpSchool, uniqueEmail, uniqueIp } from '../factories';
import { mailCount } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

// Decision 010: reset and resend cannot be used to flood an inbox, nor to lock a person out of them, and
// they answer in the same time whether or not the email has an account.

const RESET = '/api/user/request-password-reset';
const RESEND_INVITATION = '/api/user/resend-invitation';
const RESEND_VERIFICATION = '/api/site/resend-school-verification';

describe('reset and resend requests', () => {
  const clock = { now: Date.now() };
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimitStore: new MemoryStore(() => clock.now) });
  });
  afterAll(() => t.close());

  const post = (url: string, email: string) =>
    t.app.inject({ method: 'POST', url, payload: { email }, remoteAddress: uniqueIp() });

  /** The tokens of every mail to an address, oldest first. */
  async function linksTo(email: string): Promise<string[]> {
    await mailCount(t.db, email); // waits for the mail written after the answers
    const mails = await t.db
      .selectFrom('mail_outbox')
      .select('links')
      .where('to_address', '=', email)
      .orderBy('id', 'asc')
      .execute();
    return mails.map((mail) => new URL(mail.links[0] ?? '').searchParams.get('token') ?? '');
  }

  it('a day-long flood at one address: mails slow to one an hour (a link always live), the first link still works', async () => {
    const school = await registeredSchool(t.app, t.db, 'Bombed School');
    const before = (await linksTo(school.email)).length; // the signup's verification mail
    const countMails = async () => {
      await t.settled();
      const row = await t.db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('to_address', '=', school.email)
        .executeTakeFirstOrThrow();
      return Number(row.n) - before;
    };
    // One request a minute, from ever new addresses, for 24 hours; when did a mail go out?
    const sentAtMinute: number[] = [];
    const answers = new Set<string>();
    for (let minute = 0; minute < 24 * 60; minute++) {
      const response = await post(RESET, school.email);
      answers.add(`${response.statusCode} ${response.body}`);
      if ((await countMails()) > sentAtMinute.length) sentAtMinute.push(minute);
      clock.now += 60_000;
    }
    expect([...answers]).toEqual([`200 ${JSON.stringify({ message: SERVER_TEXT.resetRequested })}`]);
    expect(sentAtMinute.slice(0, 10)).toEqual([0, 1, 2, 3, 5, 9, 17, 33, 65, 125]);
    const gaps = sentAtMinute.slice(1).map((at, i) => at - (sentAtMinute[i] ?? 0));
    expect(Math.max(...gaps)).toBe(60); // never longer than a reset link lives
    expect(sentAtMinute.length).toBeLessThanOrEqual(32);

    // The flood spoiled nothing: the first reset link in the inbox still works, and then ends the others.
    const [first, ...later] = (await linksTo(school.email)).slice(before);
    const reset = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/user/reset-password?token=${token}`,
        payload: { password: 'a brand new secret' },
      });
    expect((await reset(first ?? '')).statusCode).toBe(200);
    expect((await login(t.app, school.email, 'a brand new secret')).statusCode).toBe(200);
    for (const token of later.slice(-3)) expect((await reset(token)).statusCode).toBe(400);
  }, 60_000);

  it('a flood of invitation resends leaves the invitation already received working', async () => {
    const admin = await registeredSchool(t.app, t.db, 'Inviting School');
    const invited = await invite(t, admin.schoolId, { role: 'parent' });
    for (let i = 0; i < 20; i++) expect((await post(RESEND_INVITATION, invited.email)).statusCode).toBe(200);
    expect((await linksTo(invited.email)).length).toBe(1 + MAIL_BACKOFF.free);
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/users/accept-parent-invite?token=${invited.token}`,
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ needsPassword: true, email: invited.email });
  });

  it('a flood of verification resends leaves the verification link already received working', async () => {
    const { email, verifyToken } = await signedUpSchool(t.app, t.db, { verify: false });
    for (let i = 0; i < 20; i++) expect((await post(RESEND_VERIFICATION, email)).statusCode).toBe(200);
    expect((await linksTo(email)).length).toBe(1 + MAIL_BACKOFF.free);
    const verified = await t.app.inject({
      method: 'GET',
      url: `/api/site/verify-school?token=${verifyToken}`,
    });
    expect(verified.json()).toEqual({ message: SERVER_TEXT.schoolVerified('Parley') });
  });

  describe('the same time whether or not the email has an account', () => {
    /** 20 addresses that each endpoint has work to do for, made straight in the database. */
    async function knownEmails(url: string): Promise<string[]> {
      const school = await createSchool(t.db, 'Timing School');
      if (url !== RESEND_VERIFICATION) await markSchoolVerified(t.db, school.id);
      const role: Role = url === RESEND_VERIFICATION ? 'admin' : 'parent';
      const emails: string[] = [];
      for (let i = 0; i < 20; i++) {
        const email = uniqueEmail('timed');
        const user = await createUser(t.db, {
          schoolId: school.id,
          email,
          firstName: 'Tim',
          lastName: 'Ing',
          passwordHash: null,
        });
        await grantRole(t.db, {
          userId: user.id,
          schoolId: school.id,
          role,
          accepted: url !== RESEND_INVITATION,
        });
        emails.push(email);
      }
      return emails;
    }

    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = sorted.length / 2;
      return ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
    };

    it.each([RESET, RESEND_INVITATION, RESEND_VERIFICATION])(
      '%s: the median answer for 20 known emails is within 1 ms of 20 unknown ones',
      async (url) => {
        const timed = async (email: string) => {
          const started = performance.now();
          const response = await post(url, email);
          const ms = performance.now() - started;
          expect(response.statusCode).toBe(200);
          // Each measure starts with nothing left running from the one before.
          await t.settled();
          return { ms, body: response.body };
        };
        for (let i = 0; i < 5; i++) await timed(uniqueEmail('warm-up'));
        const bodies = new Set<string>();
        /** One measure: 20 pairs, each a known and an unknown email back to back (the order alternating),
         * so a slow phase of a shared machine slows both halves of a pair alike. */
        const measure = async () => {
          const known = await knownEmails(url);
          const unknown = known.map(() => uniqueEmail('nobody'));
          const differences: number[] = [];
          for (let i = 0; i < known.length; i++) {
            const knownFirst = i % 2 === 0;
            const first = await timed((knownFirst ? known[i] : unknown[i]) ?? '');
            const second = await timed((knownFirst ? unknown[i] : known[i]) ?? '');
            differences.push(knownFirst ? first.ms - second.ms : second.ms - first.ms);
            bodies.add(first.body).add(second.body);
          }
          // The work was done for every known email (after the answer), and for no unknown one.
          for (const email of known) expect(await mailCount(t.db, email)).toBe(1);
          for (const email of unknown) expect(await mailCount(t.db, email)).toBe(0);
          return median(differences);
        };
        // A timing on a shared machine can be thrown by a busy phase: a real difference (answering after
        // the work took ~7 ms more) shows in every measure, a busy phase rarely in three.
        const measured: number[] = [];
        for (let round = 0; round < 3; round++) {
          measured.push(await measure());
          if (Math.abs(measured.at(-1) ?? 0) < 1) break;
        }
        console.log(
          `${url}: known minus unknown, median of 20 pairs: ${measured.map((ms) => ms.toFixed(3)).join(', ')} ms`,
        );
        expect(bodies.size).toBe(1);
        expect(Math.min(...measured.map(Math.abs))).toBeLessThan(1);
      },
    );
  });

  it('the work after the answer is finished before app.close() resolves (SIGTERM drains it)', async () => {
    const other = await createTestApp();
    const { email } = await registeredSchool(other.app, other.db, 'Closing School');
    const userId = (
      await other.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    ).id;
    const resetTokens = () =>
      other.db
        .selectFrom('auth_tokens')
        .select('token_hash')
        .where('user_id', '=', userId)
        .where('kind', '=', 'reset')
        .execute();
    const response = await other.app.inject({
      method: 'POST',
      url: RESET,
      payload: { email },
      remoteAddress: uniqueIp(),
    });
    expect(response.statusCode).toBe(200);
    await other.app.close(); // the database is still open: close() must wait for the mail
    expect((await resetTokens()).map((row) => row.token_hash)).toEqual([expect.any(String)]);
    await other.close();
  });
});
