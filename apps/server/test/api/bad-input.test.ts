import { SERVER_TEXT, VALIDATION } from '@parley/domain/messages';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registeredSchool, uniqueIp } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

/** JSON-body endpoints with a valid body each (so one field at a time can be broken). */
const JSON_ENDPOINTS: Array<{ url: string; body: Record<string, unknown> }> = [
  { url: '/api/user/login', body: { email: 'someone@example.org', password: 'long enough pw' } },
  {
    url: '/api/site/signup',
    body: {
      subscriberName: 'Bad Input School',
      firstName: 'Ann',
      lastName: 'Bee',
      email: 'someone@example.org',
      password: 'long enough pw',
    },
  },
  { url: '/api/user/request-password-reset', body: { email: 'someone@example.org' } },
  { url: '/api/user/resend-invitation', body: { email: 'someone@example.org' } },
  { url: '/api/site/resend-school-verification', body: { email: 'someone@example.org' } },
  { url: '/api/user/reset-password?token=abc', body: { password: 'long enough pw' } },
  { url: '/api/users/set-teacher-password', body: { token: 'abc', password: 'long enough pw' } },
];

/** Never a server error, never a stack trace or source path handed to the client. */
function expectClean(response: LightMyRequestResponse) {
  expect(response.statusCode).toBeLessThan(500);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.body;
  expect(body).not.toMatch(/"stack"|\n\s+at |\.ts:\d+|node_modules|Error:/);
  const parsed = response.json() as Record<string, unknown>;
  expect(typeof parsed.message).toBe('string');
  expect(Object.keys(parsed).every((key) => ['message', 'errors', 'action', 'retry'].includes(key))).toBe(
    true,
  );
}

describe('bad input never breaks the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const send = (url: string, body: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      body,
      remoteAddress: uniqueIp(),
      headers: { 'content-type': 'application/json', ...headers },
    });

  describe.each(JSON_ENDPOINTS)('POST $url', ({ url, body }) => {
    const firstField = Object.keys(body)[0] ?? '';

    it('malformed JSON → 400 "The request body is not valid JSON."', async () => {
      for (const raw of ['{"email": ', '{email: "a@b.co"}', "{'a': 1}", '{"a":1}}', 'undefined']) {
        const response = await send(url, raw);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ message: 'The request body is not valid JSON.' });
        expectClean(response);
      }
    });

    it('a number or an object where text belongs → 422 with an error on that field', async () => {
      for (const wrong of [12345, { nested: true }, ['list'], true]) {
        const response = await send(url, JSON.stringify({ ...body, [firstField]: wrong }));
        expect(response.statusCode).toBe(422);
        const json = response.json() as { message: string; errors: Record<string, string[]> };
        expect(json.message).toBe(SERVER_TEXT.invalidInput);
        // The first message of a field is the one the client shows (spec §8).
        expect(json.errors[firstField]?.[0]).toBe(VALIDATION.notText);
        expectClean(response);
      }
    });

    it('missing fields → 422 "Required." for each', async () => {
      const response = await send(url, '{}');
      expect(response.statusCode).toBe(422);
      const errors = (response.json() as { errors: Record<string, string[]> }).errors;
      for (const field of Object.keys(body)) expect(errors[field], field).toEqual(['Required.']);
      expectClean(response);
    });

    it('unknown fields → 422 errors.<field> ["Unknown field."]', async () => {
      const response = await send(url, JSON.stringify({ ...body, isAdmin: true, school_id: 1 }));
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        message: SERVER_TEXT.invalidInput,
        errors: { isAdmin: ['Unknown field.'], school_id: ['Unknown field.'] },
      });
      expectClean(response);
    });

    it('unknown fields named like an object’s members (constructor, toString, __proto__) → 422, never a crash', async () => {
      // Found by property-routes.test.ts: these keys crashed the field-error builder mid-answer, which
      // then sent the TypeError's text with the 422.
      const keys = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'];
      const extra = (names: string[]) =>
        `${JSON.stringify(body).slice(0, -1)},${names.map((key) => `"${key}":1`).join(',')}}`;
      const response = await send(url, extra(keys));
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        message: SERVER_TEXT.invalidInput,
        errors: Object.fromEntries(keys.map((key) => [key, ['Unknown field.']])),
      });
      expectClean(response);
      // A "__proto__" key is refused and named like any other (an own key of the parsed answer).
      const proto = await send(url, extra(['__proto__']));
      expect(proto.statusCode).toBe(422);
      expect(proto.json()).toMatchObject({ message: SERVER_TEXT.invalidInput });
      expect(Object.entries(proto.json().errors)).toEqual([['__proto__', ['Unknown field.']]]);
      expectClean(proto);
    });

    it('a body over 1 MB → 400 with the too-large text', async () => {
      const response = await send(url, JSON.stringify({ ...body, padding: 'x'.repeat(1_048_576) }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: SERVER_TEXT.bodyTooLarge });
      expect(SERVER_TEXT.bodyTooLarge).toBe('The request is too large.');
      expectClean(response);
    });

    it('a body that is not an object (null, array, string, number) → 422', async () => {
      for (const raw of ['null', '[]', '"text"', '42']) {
        const response = await send(url, raw);
        expect(response.statusCode, raw).toBe(422);
        expectClean(response);
      }
    });

    it('no body at all → 422, another content type → 400', async () => {
      const empty = await send(url, '');
      expect(empty.statusCode).toBe(422);
      expectClean(empty);
      const form = await send(url, 'email=a%40b.co', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(form.statusCode).toBe(400);
      expect(form.json()).toEqual({ message: SERVER_TEXT.unsupportedMediaType });
      expectClean(form);
    });
  });

  it('deeply nested JSON (just under 1 MB) → 422, not a stack overflow', async () => {
    const deep = await send('/api/user/login', `${'['.repeat(400_000)}${']'.repeat(400_000)}`);
    expect(deep.statusCode).toBe(422);
    expectClean(deep);
    const nestedField = await send(
      '/api/user/login',
      `{"email":${'['.repeat(100_000)}${']'.repeat(100_000)},"password":"long enough pw"}`,
    );
    expect(nestedField.statusCode).toBe(422);
    expect(nestedField.json()).toMatchObject({ errors: { email: [VALIDATION.notText] } });
  });

  it('a huge bearer token is just a missing session (401), and bad JSON on logout is a 400', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users/data',
      headers: bearer('x'.repeat(10_000)),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: SERVER_TEXT.unauthenticated, action: 'logout' });
    const logout = await send('/api/user/logout', 'not json');
    expect(logout.statusCode).toBe(400);
    expect(logout.json()).toEqual({ message: SERVER_TEXT.malformedJson });
  });

  it('a __proto__ key is an unknown field, not a prototype change', async () => {
    const response = await send(
      '/api/user/login',
      '{"email":"someone@example.org","password":"long enough pw","__proto__":{"isAdmin":true}}',
    );
    expect(response.statusCode).toBe(422);
    expectClean(response);
    expect(Object.entries(response.json().errors)).toEqual([['__proto__', ['Unknown field.']]]);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('spec §5 texts on the login form: "Invalid email format", "Min 8 characters", "Required."', async () => {
    const response = await send(
      '/api/user/login',
      JSON.stringify({ email: 'nobody-at-example.org', password: 'short' }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'Please correct the highlighted fields.',
      errors: { email: ['Invalid email format'], password: ['Min 8 characters'] },
    });
    const empty = await send('/api/user/login', JSON.stringify({ email: '', password: '' }));
    expect(empty.statusCode).toBe(422);
    const errors = (empty.json() as { errors: Record<string, string[]> }).errors;
    // The client shows the first message of each field (spec §8): an empty field reads "Required.".
    expect(errors.email?.[0]).toBe('Required.');
    expect(errors.password?.[0]).toBe('Required.');
  });

  it('over-long values are refused with a field error, not stored or crashed on', async () => {
    const longEmail = `${'a'.repeat(250)}@example.org`;
    const response = await send(
      '/api/site/signup',
      JSON.stringify({
        subscriberName: 'S'.repeat(101),
        firstName: 'F'.repeat(101),
        lastName: 'Bee',
        email: longEmail,
        password: 'p'.repeat(129),
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      errors: {
        subscriberName: [VALIDATION.nameMax],
        firstName: [VALIDATION.nameMax],
        email: [VALIDATION.invalidEmail],
        password: [VALIDATION.passwordMax],
      },
    });
  });

  describe('query strings', () => {
    it('an unknown query parameter → 422 errors.<name> ["Unknown field."]', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/site/verify-school?token=abc&admin=1',
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        message: SERVER_TEXT.invalidInput,
        errors: { admin: ['Unknown field.'] },
      });
      expectClean(response);
    });

    it('a repeated or over-long token → 422, never 500', async () => {
      for (const url of [
        '/api/site/verify-email?token=a&token=b',
        `/api/site/verify-email?token=${'t'.repeat(201)}`,
        `/api/users/accept-teacher-invite?token=${'t'.repeat(5000)}`,
        '/api/users/search-email-for-signup?q=a&q=b',
      ]) {
        const response = await t.app.inject({ method: 'GET', url, remoteAddress: uniqueIp() });
        expect(response.statusCode, url).toBe(422);
        expectClean(response);
      }
    });

    it('odd characters in a token are just an invalid link', async () => {
      for (const token of ["' OR 1=1 --", '%00', '../../etc/passwd', '😀']) {
        const response = await t.app.inject({
          method: 'GET',
          url: `/api/site/verify-school?token=${encodeURIComponent(token)}`,
        });
        expect(response.statusCode, token).toBe(400);
        expect(response.json()).toMatchObject({ message: SERVER_TEXT.tokenInvalid });
      }
    });

    it('odd search text for an admin is harmless', async () => {
      const school = await registeredSchool(t.app, t.db);
      for (const q of ["' OR 1=1 --", '\\', '%_%', 'x'.repeat(254)]) {
        const response = await t.app.inject({
          method: 'GET',
          url: `/api/user/search-email?q=${encodeURIComponent(q)}`,
          headers: bearer(school.accessToken),
        });
        expect(response.statusCode, q).toBe(200);
        expect(response.json()).toEqual({ items: [] });
      }
    });
  });

  it('an unknown API path → 404 { message: "Not found." }', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['GET', '/api/user/login'],
      ['DELETE', '/api/users/data'],
    ] as const) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ message: SERVER_TEXT.notFound });
    }
  });
});
