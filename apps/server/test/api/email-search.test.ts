import { SERVER_TEXT } from '@parley/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, invite, PASSWORD, registeredSchool } from '../factories';
import { createTestApp, type TestApp } from '../test-app';

type Items = { items: Array<{ id: number; email: string; name: string }> };

describe('GET /api/user/search-email (admin only, own school only)', () => {
  let t: TestApp;
  let mine: Awaited<ReturnType<typeof registeredSchool>>;
  let theirs: Awaited<ReturnType<typeof registeredSchool>>;
  let teacherToken: string;
  const stamp = Date.now();
  const ownTeacher = `zeta.teacher.${stamp}@own.example.org`;
  const ownParent = `zeta.parent.${stamp}@own.example.org`;
  const foreignTeacher = `zeta.foreign.${stamp}@other.example.org`;

  beforeAll(async () => {
    t = await createTestApp();
    mine = await registeredSchool(t.app, t.db, 'Search School');
    theirs = await registeredSchool(t.app, t.db, 'Foreign School');
    const teacher = await invite(t, mine.schoolId, {
      role: 'teacher',
      email: ownTeacher,
      firstName: 'Zed',
      lastName: 'Teach',
    });
    await invite(t, mine.schoolId, {
      role: 'parent',
      email: ownParent,
      firstName: 'Zoe',
      lastName: 'Parent',
    });
    await invite(t, theirs.schoolId, { role: 'teacher', email: foreignTeacher });
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/users/set-teacher-password',
      payload: { token: teacher.token, password: PASSWORD },
    });
    teacherToken = (set.json() as { accessToken: string }).accessToken;
  });
  afterAll(() => t.close());

  const search = (q: string, token: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/user/search-email?q=${encodeURIComponent(q)}`,
      headers: bearer(token),
    });

  it('finds addresses of the admin’s own school by prefix, with names, sorted', async () => {
    const response = await search('ZETA.', mine.accessToken);
    expect(response.statusCode).toBe(200);
    expect((response.json() as Items).items).toEqual([
      { id: expect.any(Number), email: ownParent, name: 'Zoe Parent' },
      { id: expect.any(Number), email: ownTeacher, name: 'Zed Teach' },
    ]);
  });

  it('never lists another school’s addresses', async () => {
    const mineAnswer = (await search('zeta.foreign', mine.accessToken)).json() as Items;
    expect(mineAnswer.items).toEqual([]);
    const theirsAnswer = (await search('zeta.', theirs.accessToken)).json() as Items;
    expect(theirsAnswer.items.map((item) => item.email)).toEqual([foreignTeacher]);
  });

  it('answers nothing for a blank query and treats % and _ literally', async () => {
    for (const q of ['', '   ', '%', '_eta']) {
      const response = await search(q, mine.accessToken);
      expect(response.statusCode).toBe(200);
      expect((response.json() as Items).items).toEqual([]);
    }
  });

  it('is refused to a teacher (403) and to an anonymous caller (401)', async () => {
    const teacher = await search('zeta', teacherToken);
    expect(teacher.statusCode).toBe(403);
    expect(teacher.json()).toEqual({ message: SERVER_TEXT.forbidden });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/user/search-email?q=zeta' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: SERVER_TEXT.unauthenticated, action: 'logout' });
  });
});
