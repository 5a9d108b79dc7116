import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-app';
import {
  type Api,
  acceptInvitation,
  addMember,
  addPerson,
  api,
  expectStatus,
  newSchool,
  type Person,
} from './directory-helpers';

// Decision 035: the directory comes a page at a time, searched and sorted by the server, so a district's
// 20,000 parents are never sent whole. Each list keeps a stable order, so pages never overlap.

type Page = {
  items: Array<{ id: number; name: string; email: string; status: number; related: string[] }>;
  total: number;
  page: number;
  pageSize: number;
};

let t: TestApp;
let http: Api;
let admin: { id: number; email: string; token: string };
let parents: Person[];
let child: Person;

const LAST_NAMES = [
  'Able',
  'Baker',
  'Cole',
  'Dunn',
  'Evans',
  'Frost',
  'Green',
  'Hale',
  'Irwin',
  'Jones',
  'King',
];

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  ({ admin } = await newSchool(t, 'Paging School'));
  child = await addPerson(t, admin.token, 'student', { firstName: 'Kit', lastName: 'Cole' });
  parents = [];
  for (const [index, lastName] of LAST_NAMES.entries())
    parents.push(
      await addPerson(t, admin.token, 'parent', {
        firstName: index % 2 ? 'Sam' : 'Alex',
        lastName,
        email: `p${String(20 - index).padStart(2, '0')}.${lastName.toLowerCase()}@paging.example.org`,
        ...(lastName === 'Cole' && { studentIds: [child.id], title: 'Dr' }),
      }),
    );
  // A twelfth who shares a whole name with another: the id decides their order.
  parents.push(
    await addPerson(t, admin.token, 'parent', {
      firstName: 'Alex',
      lastName: 'Able',
      email: '100%_sure@paging.example.org',
    }),
  );
});
afterAll(() => t.close());

const page = async (query: string) =>
  expectStatus<Page>(await http.get(`users/parents?${query}`, admin.token), 200);
const names = (found: Page) => found.items.map((item) => item.name);
const byName = (lastName: string) => parents.find((parent) => parent.lastName === lastName) as Person;

describe('the directory a page at a time', () => {
  it('answers 10 by name by default, and the next page the rest, never overlapping', async () => {
    const first = await page('');
    expect(first).toMatchObject({ total: 12, page: 1, pageSize: 10 });
    expect(first.items).toHaveLength(10);
    expect(names(first).slice(0, 3)).toEqual(['Alex Able', 'Alex Able', 'Sam Baker']);
    const [twin1, twin2] = first.items;
    expect((twin1?.id ?? 0) < (twin2?.id ?? 0)).toBe(true);
    const second = await page('page=2');
    expect(names(second)).toEqual(['Sam Jones', 'Alex King']);
    const seen = [...first.items, ...second.items].map((item) => item.id);
    expect(new Set(seen).size).toBe(12);
    expect(await page('page=3')).toMatchObject({ items: [], total: 12, page: 3 });
    expect((await page('pageSize=25')).items).toHaveLength(12);
  });

  it('names what each parent links to: their children', async () => {
    const found = await page('q=cole');
    expect(found.items).toEqual([expect.objectContaining({ name: 'Alex Cole', related: ['Kit Cole'] })]);
    const students = expectStatus<Page>(await http.get('users/students', admin.token), 200);
    expect(students.items[0]?.related).toEqual(['Alex Cole']);
  });

  it('searches every word in the title, name or email, in any case, its % and _ taken literally', async () => {
    expect(names(await page('q=SAM'))).toEqual([
      'Sam Baker',
      'Sam Dunn',
      'Sam Frost',
      'Sam Hale',
      'Sam Jones',
    ]);
    expect(names(await page('q=sam%20p17'))).toEqual(['Sam Dunn']);
    expect(names(await page('q=dr'))).toEqual(['Alex Cole']);
    expect(names(await page('q=alex%20%20able'))).toEqual(['Alex Able', 'Alex Able']);
    expect((await page(`q=${encodeURIComponent('100%_')}`)).items.map((item) => item.email)).toEqual([
      '100%_sure@paging.example.org',
    ]);
    expect(await page(`q=${encodeURIComponent('%')}`)).toMatchObject({ total: 1 });
    expect(await page('q=nobody')).toMatchObject({ items: [], total: 0 });
  });

  it('sorts by email, status or invitation, either way, then by name', async () => {
    const emails = (await page('sort=email&dir=desc&pageSize=25')).items.map((item) => item.email);
    expect(emails).toEqual([...emails].sort().reverse());
    expect(emails[0]).toBe('p20.able@paging.example.org');

    const inactive = byName('King');
    expectStatus(await http.post(`users/update-parent?id=${inactive.id}`, admin.token, { status: 0 }), 200);
    expect(names(await page('sort=status'))[0]).toBe('Alex Able');
    expect(names(await page('sort=status&dir=desc'))[0]).toBe('Alex King');
    expect(names(await page('sort=status&pageSize=25')).at(-1)).toBe('Alex King');

    await acceptInvitation(t, byName('Hale').email, 'parent');
    expect(names(await page('sort=invitation'))[0]).toBe('Sam Hale');
    expect(names(await page('sort=invitation&dir=desc&pageSize=25')).at(-1)).toBe('Sam Hale');
  });

  it('refuses bad paging with the field named, and serves admins of its own school only', async () => {
    const refused: Array<[string, string]> = [
      ['pageSize=7', 'pageSize'],
      ['pageSize=-1', 'pageSize'],
      ['page=0', 'page'],
      ['page=1e400', 'page'],
      ['sort=password', 'sort'],
      ['dir=up', 'dir'],
      [`q=${'a'.repeat(101)}`, 'q'],
      ['q=%00', 'q'],
      ['limit=5', 'limit'],
    ];
    for (const [query, field] of refused) {
      const res = await http.get(`users/parents?${query}`, admin.token);
      expect(res.statusCode, query).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, query).toBeLessThan(500);
      expect(JSON.stringify(res.json()), query).toContain(field);
    }
    const teacher = await addMember(t, admin.token, 'teacher');
    expect((await http.get('users/parents', teacher.token)).statusCode).toBe(403);
    const other = await newSchool(t, 'Other Paging School');
    await addPerson(t, other.admin.token, 'parent', { firstName: 'Sam', lastName: 'Baker' });
    const theirs = expectStatus<Page>(await http.get('users/parents?q=baker', other.admin.token), 200);
    expect(theirs.total).toBe(1);
    expect(theirs.items[0]?.id).not.toBe(byName('Baker').id);
  });
});
