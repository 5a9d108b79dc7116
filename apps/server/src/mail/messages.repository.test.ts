import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredSchool } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { upsertSubscription } from '../push/push.repository';
import { enqueueMessages, type OutgoingMessages } from './messages.repository';

// The one statement that writes a change's mails and pushes (issue 14) sends the rows as JSON: text that
// JSON or an array literal could mangle (quotes, backslashes, braces, commas, the word NULL, line breaks,
// a lone surrogate) must arrive as it left, or as UTF-8 would carry it, on PGlite and PostgreSQL alike.
const HOSTILE = 'He said "hi" \\ {a,b} NULL, \'quoted\' – ünïcode 😀\nsecond line';

describe('enqueueMessages', () => {
  let t: TestApp;
  let schools: Array<Awaited<ReturnType<typeof registeredSchool>>>;
  beforeAll(async () => {
    t = await createTestApp();
    schools = [await registeredSchool(t.app, t.db, 'North'), await registeredSchool(t.app, t.db, 'South')];
    for (const [index, school] of schools.entries()) {
      for (const n of [1, 2])
        await upsertSubscription(t.db, {
          schoolId: school.schoolId,
          userId: school.userId,
          endpoint: `https://push.example.org/${index}/${n}`,
          p256dh: 'key',
          auth: 'auth',
          userAgent: null,
        });
    }
  });
  afterAll(() => t.close());

  it('writes mails as given, drops synthetic addresses, and pushes to each subscription of the school', async () => {
    const [north, south] = schools;
    if (!north || !south) throw new Error('two schools');
    const before = await t.db.selectFrom('mail_outbox').select('id').execute();
    const messages: OutgoingMessages = {
      mails: [
        {
          schoolId: north.schoolId,
          to: 'family@example.org',
          subject: HOSTILE,
          text: HOSTILE,
          html: `<p>${HOSTILE}</p>`,
          links: ['https://parley.test/a?x="1"', HOSTILE],
          attachments: [{ filename: 'evening.ics', contentType: 'text/calendar', content: HOSTILE }],
        },
        {
          schoolId: north.schoolId,
          to: 'parent-1@rehearsal.invalid',
          subject: 'never sent',
          text: '',
          html: '',
          links: [],
        },
      ],
      pushes: [
        // The school's admin twice in one push (once), and South's admin, who is not North's to reach.
        {
          userIds: [north.userId, north.userId, south.userId],
          payload: { title: HOSTILE },
          ttlSeconds: 60,
          urgency: 'high',
        },
        { userIds: [], payload: { title: 'nobody' }, ttlSeconds: 60, urgency: 'normal' },
      ],
    };
    await enqueueMessages(t.db, north.schoolId, messages);

    const mails = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where(
        'id',
        'not in',
        before.map((row) => row.id),
      )
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      school_id: north.schoolId,
      to_address: 'family@example.org',
      subject: HOSTILE,
      text_body: HOSTILE,
      html_body: `<p>${HOSTILE}</p>`,
      links: ['https://parley.test/a?x="1"', HOSTILE],
      attachments: [{ filename: 'evening.ics', contentType: 'text/calendar', content: HOSTILE }],
    });
    const pushes = await t.db
      .selectFrom('push_outbox')
      .innerJoin('push_subscriptions as s', 's.id', 'push_outbox.subscription_id')
      .select(['push_outbox.school_id', 's.user_id', 'payload', 'ttl_seconds', 'urgency'])
      .execute();
    expect(pushes).toEqual([
      {
        school_id: north.schoolId,
        user_id: north.userId,
        payload: { title: HOSTILE },
        ttl_seconds: 60,
        urgency: 'high',
      },
      {
        school_id: north.schoolId,
        user_id: north.userId,
        payload: { title: HOSTILE },
        ttl_seconds: 60,
        urgency: 'high',
      },
    ]);
  });

  it('stores a lone surrogate in a mail as U+FFFD, as UTF-8 carries it, instead of failing the change', async () => {
    const [north] = schools;
    if (!north) throw new Error('a school');
    const lone = 'Zoë \ud800 and \udfff end';
    await enqueueMessages(t.db, north.schoolId, {
      mails: [
        {
          schoolId: north.schoolId,
          to: 'lone@example.org',
          subject: lone,
          text: lone,
          html: lone,
          links: [],
        },
      ],
      pushes: [],
    });
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body', 'html_body'])
      .where('to_address', '=', 'lone@example.org')
      .executeTakeFirstOrThrow();
    const expected = 'Zoë \ufffd and \ufffd end';
    expect(mail).toEqual({ subject: expected, text_body: expected, html_body: expected });
  });

  it('writes nothing for no messages', async () => {
    const count = async () =>
      (await t.db.selectFrom('mail_outbox').select('id').execute()).length +
      (await t.db.selectFrom('push_outbox').select('id').execute()).length;
    const before = await count();
    await enqueueMessages(t.db, schools[0]?.schoolId ?? 0, { mails: [], pushes: [] });
    expect(await count()).toBe(before);
  });
});
