import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registeredSchool } from '../factories';
import { mailCount } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

describe('bulk add', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await registeredSchool(t.app, t.db, 'Bulk School')).accessToken;
    for (const name of ['Maths', 'English']) {
      await t.app.inject({
        method: 'POST',
        url: '/api/subjects/create',
        headers: bearer(token),
        payload: { name },
      });
    }
  });
  afterAll(() => t.close());

  const teachersCsv = [
    'Title,First name,Last name,Email,Subjects',
    'Mr,Tom,Hardy,tom@bulk.org,Maths; English',
    'Ms,Ann,Lee,not-an-email,Maths',
    'Dr,Raj,Patel,raj@bulk.org,Astrology',
    'Mrs,Tina,Tam,TOM@bulk.org,',
    'Mx,Sam,Stone,sam@bulk.org,English',
  ].join('\n');

  it('previews every row with its reason and writes nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/bulk-add-teachers',
      headers: bearer(token),
      payload: { csv: teachersCsv },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.confirmed).toBe(false);
    expect(body.rows.map((r: { status: string }) => r.status)).toEqual([
      'new',
      'error',
      'error',
      'error',
      'new',
    ]);
    expect(body.rows[1].errors).toEqual(['email: Invalid email format']);
    expect(body.rows[2].errors).toEqual(['unknown subject "Astrology"']);
    expect(body.rows[3].errors).toEqual(['duplicate of line 2']);
    const list = await t.app.inject({ method: 'GET', url: '/api/users/teachers', headers: bearer(token) });
    expect(list.json().items).toHaveLength(0);
  });

  it('confirm writes the good rows with subjects and invitations, and a second run adds nothing', async () => {
    const url = '/api/users/bulk-add-teachers?confirm=true&send_invite=true';
    const first = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(token),
      payload: { csv: teachersCsv },
    });
    expect(first.json().summary).toEqual({ created: 2, rolesAdded: 2, skipped: 0, invalid: 3, invited: 2 });
    expect(await mailCount(t.db, 'tom@bulk.org')).toBe(1);
    const second = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(token),
      payload: { csv: teachersCsv },
    });
    expect(second.json().summary).toEqual({ created: 0, rolesAdded: 0, skipped: 2, invalid: 3, invited: 0 });
    expect(await mailCount(t.db, 'tom@bulk.org')).toBe(1);
    const list = await t.app.inject({ method: 'GET', url: '/api/users/teachers', headers: bearer(token) });
    const items = list.json().items;
    expect(items.map((i: { name: string }) => i.name)).toEqual(['Tom Hardy', 'Sam Stone']);
    expect(items[0].subjectIds).toHaveLength(2);
    expect(items[0].invitation).toBe('pending');
  });

  it('adds students with their parents; siblings share a parent', async () => {
    const csv = [
      'Student first name,Student last name,Student email,Parent first name,Parent last name,Parent email,Parent 2 first name,Parent 2 last name,Parent 2 email',
      'Amy,Brown,amy@bulk.org,Bea,Brown,bea@bulk.org,Bob,Brown,bob@bulk.org',
      'Ali,Brown,ali@bulk.org,Bea,Brown,bea@bulk.org,,,',
      'Zed,Cole,zed@bulk.org,Zed,Cole,zed@bulk.org,,,',
    ].join('\n');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/bulk-add-students?confirm=true&send_invite=false',
      headers: bearer(token),
      payload: { csv },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toEqual({ created: 4, rolesAdded: 4, skipped: 0, invalid: 1, invited: 0 });
    const parents = (
      await t.app.inject({ method: 'GET', url: '/api/users/parents', headers: bearer(token) })
    ).json().items;
    const bea = parents.find((p: { email: string }) => p.email === 'bea@bulk.org');
    expect(bea.studentIds).toHaveLength(2);
  });

  it('refuses a file without the needed columns', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/bulk-add-teachers',
      headers: bearer(token),
      payload: { csv: 'Name,Mail\nTom,tom@x.org' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Missing columns: First name, Last name, Email');
  });
});
