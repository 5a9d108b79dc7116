import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../factories';
import { createTestApp, type TestApp } from '../test-app';
import { addAdmin, api, newSchool } from './directory-helpers';

// Two admins adding the same new email at the same moment (issue 9): one is created, the other is told the
// email is taken (409 on the email field: the service's check, or in a true race the unique index), never
// a 500.

describe('two admins add one new email at once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('one gets it, the other 409 on email', async () => {
    const school = await newSchool(t, 'Race Academy');
    const second = await addAdmin(t, school.admin.token);
    const http = api(t.app);
    for (let round = 0; round < 5; round++) {
      const body = { email: uniqueEmail('same'), firstName: 'Sam', lastName: 'Same', sendInvite: false };
      const answers = await Promise.all([
        http.post('users/create-teacher', school.admin.token, body),
        http.post('users/create-teacher', second.token, body),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const refused = answers.find((answer) => answer.statusCode === 409);
      // The service's own check ("… is already a teacher") or, in a true race, the unique index's.
      expect(refused?.json().errors.email).toHaveLength(1);
    }
  });
});
