import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registeredSchool } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('registers, verifies and logs in an admin who sees the school', async () => {
    const school = await registeredSchool(t.app, t.db, 'Smoke Test School');
    const data = await t.app.inject({
      method: 'GET',
      url: '/api/users/data',
      headers: bearer(school.accessToken),
    });
    expect(data.statusCode).toBe(200);
    expect(data.json()).toMatchObject({ isAdmin: true, subscriberName: 'Smoke Test School', loginCount: 1 });
  });
});
