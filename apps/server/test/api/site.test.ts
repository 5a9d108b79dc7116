import { SERVER_TEXT } from '@parley/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueMail } from '../../src/mail/mail-worker';
import { devMailboxTransport } from '../../src/mail/transport';
import { bearer, invite, registeredSchool, signedUpSchool } from '../factories';
import { lastMailTo } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

describe('site endpoints, the OpenAPI document and the dev mailbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET site/config answers the app name, version, bot-check key and dev-mailbox flag without a login', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/site/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      appName: 'Parley',
      version: '1.0.5',
      turnstileSiteKey: null,
      devMailbox: true,
    });
  });

  describe('GET site/index', () => {
    it('answers the school name and an empty "View as" list for an admin (admin is never offered)', async () => {
      const school = await registeredSchool(t.app, t.db, 'Index School');
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/site/index',
        headers: bearer(school.accessToken),
      });
      expect(response.statusCode).toBe(200);
      // Plus the admin's home tiles (issue 4): a new school holds its four sample events and nobody else.
      expect(response.json()).toEqual({
        subscriberName: 'Index School',
        viewAsSelectorItems: [],
        eventsCount: 4,
        teachersCount: 0,
        parentsCount: 0,
        studentsCount: 0,
        activeEvents: [],
        teacherEventsCount: 0,
        parentEventsCount: 0,
        studentEventsCount: 0,
        teacherOpenEventsSummary: [],
        parentOpenEventsSummary: [],
        studentOpenEventsSummary: [],
      });
    });

    it('lists every non-admin role of the user in spec order', async () => {
      const school = await registeredSchool(t.app, t.db);
      for (const role of ['student', 'parent', 'teacher'] as const) {
        const { token } = await invite(t, school.schoolId, { role, email: school.email });
        await t.app.inject({ method: 'GET', url: `/api/users/accept-${role}-invite?token=${token}` });
      }
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/site/index',
        headers: bearer(school.accessToken),
      });
      expect(response.json()).toMatchObject({
        viewAsSelectorItems: [
          { value: 'teacher', label: 'Teacher' },
          { value: 'parent', label: 'Parent' },
          { value: 'student', label: 'Student' },
        ],
      });
    });

    it('answers 401 with action logout without a token', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/site/index' });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: SERVER_TEXT.unauthenticated, action: 'logout' });
    });
  });

  it('GET /api/docs/json is an OpenAPI document listing every auth path', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json() as {
      openapi: string;
      info: { title: string; version: string };
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info).toMatchObject({ title: 'Parley API', version: '1.0.5' });
    const expected: Array<[string, string]> = [
      ['post', '/api/site/signup'],
      ['get', '/api/users/search-email-for-signup'],
      ['get', '/api/site/verify-school'],
      ['get', '/api/site/verify-email'],
      ['post', '/api/site/resend-school-verification'],
      ['post', '/api/user/login'],
      ['post', '/api/user/logout'],
      ['post', '/api/user/request-password-reset'],
      ['post', '/api/user/reset-password'],
      ['post', '/api/user/resend-invitation'],
      ['get', '/api/users/accept-admin-invite'],
      ['get', '/api/users/accept-teacher-invite'],
      ['get', '/api/users/accept-parent-invite'],
      ['get', '/api/users/accept-student-invite'],
      ['post', '/api/users/set-admin-password'],
      ['post', '/api/users/set-teacher-password'],
      ['post', '/api/users/set-new-password'],
      ['get', '/api/users/data'],
      ['get', '/api/user/search-email'],
      ['get', '/api/site/index'],
      ['get', '/api/site/config'],
    ];
    for (const [method, path] of expected) expect(doc.paths[path], path).toHaveProperty(method);
    // The login request body is documented from the shared zod schema.
    const login = doc.paths['/api/user/login']?.post as {
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
    };
    expect(Object.keys(login.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['email', 'password', 'botCheckToken']),
    );
  });

  it('GET /api/dev/mailbox lists the mail delivered to it, newest first, and shows one mail', async () => {
    const { email } = await signedUpSchool(t.app, t.db, { verify: false });
    await sendDueMail(
      t.db,
      devMailboxTransport(t.db, () => {}),
    );
    const response = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    expect(response.statusCode).toBe(200);
    const { items } = response.json() as {
      items: Array<{
        id: number;
        to: string;
        subject: string;
        links: string[];
        status: string;
        createdAt: string;
      }>;
    };
    expect(items[0]).toMatchObject({ to: email, status: 'sent' });
    expect(items[0]?.links[0]).toMatch(/\/auth\/verify-school\?token=/);
    expect(Number.isNaN(Date.parse(items[0]?.createdAt ?? ''))).toBe(false);

    const one = await t.app.inject({ method: 'GET', url: `/api/dev/mailbox/view?id=${items[0]?.id}` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ to: email, subject: items[0]?.subject });
    expect((await t.app.inject({ method: 'GET', url: '/api/dev/mailbox/view?id=999999' })).statusCode).toBe(
      404,
    );
  });
});

describe('with SMTP_URL and APP_NAME set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SMTP_URL: 'smtp://mail.example.org:587', APP_NAME: 'Evenings' } });
  });
  afterAll(() => t.close());

  it('has no dev mailbox: /api/dev/mailbox is 404, site/config and the OpenAPI document agree', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: SERVER_TEXT.notFound });
    expect((await t.app.inject({ method: 'GET', url: '/api/dev/mailbox/view?id=1' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/site/config' })).json()).toMatchObject({
      appName: 'Evenings',
      devMailbox: false,
    });
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      info: { title: string };
      paths: Record<string, unknown>;
    };
    expect(doc.info.title).toBe('Evenings API');
    expect(doc.paths['/api/dev/mailbox']).toBeUndefined();
    expect(doc.paths['/api/user/login']).toBeDefined();
  });

  it('names the configured product in the verification mail and the verified text', async () => {
    const { email, verifyToken } = await signedUpSchool(t.app, t.db, { name: 'Named School', verify: false });
    const mail = await lastMailTo(t.db, email);
    expect(mail?.subject).toBe('Confirm your Evenings registration for Named School');
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/site/verify-school?token=${verifyToken}`,
    });
    expect(response.json()).toEqual({
      message: 'School account verified successfully! Welcome to Evenings.',
    });
  });
});
