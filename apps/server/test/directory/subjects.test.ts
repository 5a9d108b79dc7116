import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-app';
import { type Api, addPerson, addSubject, api, expectStatus, newSchool } from './directory-helpers';

// Subjects CRUD (issue 3): what teachers teach and students study, unique by name within a school.

let t: TestApp;
let http: Api;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  token = (await newSchool(t, 'Subject School')).admin.token;
});
afterAll(() => t.close());

type Subject = {
  id: number;
  name: string;
  teacherCount: number;
  studentCount: number;
  createdAt: string;
  createdAtLabel: string;
};
const list = async () =>
  expectStatus<{ items: Subject[] }>(await http.get('subjects/index', token), 200).items;

describe('subjects', () => {
  it('create trims the name and answers with the id and a message', async () => {
    const res = await http.post('subjects/create', token, { name: '  Biology  ' });
    const body = expectStatus<{ id: number; message: string }>(res, 200);
    expect(body).toEqual({ id: expect.any(Number), message: 'Subject "Biology" added.' });
    expect((await list()).find((s) => s.id === body.id)?.name).toBe('Biology');
  });

  it('index lists every subject sorted by name with teacher and student counts', async () => {
    const chemistry = await addSubject(t, token, 'chemistry');
    const algebra = await addSubject(t, token, 'Algebra');
    const teacher = await addPerson(t, token, 'teacher', { subjectIds: [chemistry, algebra] });
    await addPerson(t, token, 'teacher', { subjectIds: [chemistry] });
    await addPerson(t, token, 'student', { subjects: [{ subjectId: chemistry, teacherId: teacher.id }] });
    const items = await list();
    expect(items.map((s) => s.name)).toEqual(['Algebra', 'Biology', 'chemistry']);
    const item = items.find((s) => s.id === chemistry);
    expect(item).toEqual({
      id: chemistry,
      name: 'chemistry',
      teacherCount: 2,
      studentCount: 1,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      createdAtLabel: expect.stringMatching(/^\w{3} \d{1,2} \w{3} \d{4}$/),
    });
    expect(items.find((s) => s.id === algebra)).toMatchObject({ teacherCount: 1, studentCount: 0 });
  });

  it('view gives the subject with its teachers', async () => {
    const id = await addSubject(t, token, 'Drama');
    const teacher = await addPerson(t, token, 'teacher', {
      firstName: 'Dee',
      lastName: 'Rama',
      subjectIds: [id],
    });
    await addPerson(t, token, 'teacher');
    const res = await http.get(`subjects/view?id=${id}`, token);
    expect(expectStatus(res, 200)).toEqual({
      id,
      name: 'Drama',
      teacherCount: 1,
      studentCount: 0,
      createdAt: expect.any(String),
      createdAtLabel: expect.any(String),
      teachers: [{ id: teacher.id, name: 'Dee Rama', email: teacher.email }],
    });
    expectStatus(await http.get('subjects/view?id=999999', token), 404);
    expect(expectStatus(await http.get('subjects/view', token), 422).errors).toHaveProperty('id');
  });

  it('says the day a subject was added on the school’s clock, not the server’s (issue 36)', async () => {
    const id = await addSubject(t, token, 'Geology');
    // 23:30 UTC on 12 March is 12:30 on 13 March in Auckland (NZDT, +13).
    await sql`update subjects set created_at = '2026-03-12T23:30:00Z' where id = ${id}`.execute(t.db);
    const { school_id } = await t.db
      .selectFrom('subjects')
      .select('school_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('schools')
      .set({ timezone: 'Pacific/Auckland' })
      .where('id', '=', school_id)
      .execute();
    try {
      expect((await list()).find((s) => s.id === id)?.createdAtLabel).toBe('Fri 13 Mar 2026');
      expect(expectStatus<Subject>(await http.get(`subjects/view?id=${id}`, token), 200).createdAtLabel).toBe(
        'Fri 13 Mar 2026',
      );
    } finally {
      await t.db
        .updateTable('schools')
        .set({ timezone: 'Europe/London' })
        .where('id', '=', school_id)
        .execute();
    }
  });

  it('create refuses an empty, missing or too long name, and unknown fields', async () => {
    expect(expectStatus(await http.post('subjects/create', token, { name: '   ' }), 422).errors).toEqual({
      name: ['Required.'],
    });
    expect(expectStatus(await http.post('subjects/create', token, {}), 422).errors).toEqual({
      name: ['Required.'],
    });
    const long = await http.post('subjects/create', token, { name: 'x'.repeat(61) });
    expect(expectStatus(long, 422).errors).toEqual({ name: ['Name must be less than 60 characters'] });
    const extra = await http.post('subjects/create', token, { name: 'Music', colour: 'red' });
    expect(expectStatus(extra, 422).errors).toEqual({ colour: ['Unknown field.'] });
    expect((await list()).some((s) => s.name === 'Music')).toBe(false);
  });

  it('a duplicate name (in any case) is a 409 on create and on rename', async () => {
    await addSubject(t, token, 'History');
    const geography = await addSubject(t, token, 'Geography');
    const text = 'A subject named "HISTORY" already exists.';
    expect(expectStatus(await http.post('subjects/create', token, { name: 'HISTORY' }), 409)).toEqual({
      message: text,
      errors: { name: [text] },
    });
    const rename = await http.post(`subjects/update?id=${geography}`, token, { name: 'history' });
    expect(expectStatus(rename, 409).errors).toEqual({ name: ['A subject named "history" already exists.'] });
    expect((await list()).filter((s) => s.name.toLowerCase() === 'history')).toHaveLength(1);
  });

  it('update renames; unknown ids are 404 and bad names 422', async () => {
    const id = await addSubject(t, token, 'Latin');
    expect(
      expectStatus(await http.post(`subjects/update?id=${id}`, token, { name: 'Classics' }), 200),
    ).toEqual({
      id,
      message: 'Saved.',
    });
    expect((await list()).find((s) => s.id === id)?.name).toBe('Classics');
    expectStatus(await http.post('subjects/update?id=999999', token, { name: 'Nothing' }), 404);
    expect(
      expectStatus(await http.post(`subjects/update?id=${id}`, token, { name: '' }), 422).errors,
    ).toEqual({
      name: ['Required.'],
    });
  });

  it('delete removes the subject and the teachers’ links to it; a second delete is 404', async () => {
    const id = await addSubject(t, token, 'Greek');
    const keep = await addSubject(t, token, 'Hebrew');
    const teacher = await addPerson(t, token, 'teacher', { subjectIds: [id, keep] });
    expect(expectStatus(await http.post(`subjects/delete?id=${id}`, token), 200)).toEqual({
      id,
      message: 'Subject deleted.',
    });
    expect((await list()).some((s) => s.id === id)).toBe(false);
    const view = expectStatus(await http.get(`users/view-teacher-for-admin?id=${teacher.id}`, token), 200);
    expect(view.subjectIds).toEqual([keep]);
    expectStatus(await http.post(`subjects/delete?id=${id}`, token), 404);
    expectStatus(await http.post('subjects/delete?id=abc', token), 422);
  });
});
