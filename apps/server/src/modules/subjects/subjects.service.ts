import { formatLocalDate } from '@parley/domain/time-zone';
import type { Db } from '../../db/database';
import { conflict, notFound } from '../../lib/http-error';
import { isUniqueViolation } from '../../lib/pg-errors';
import { teachersForSubject } from '../people/people.repository';
import * as repo from './subjects.repository';

// The school's subjects: names unique per school (the database's unique index decides; its violation
// becomes the 409 naming the field).

const SUBJECT_NOT_FOUND = 'Subject not found.';
const duplicate = (name: string) => {
  const text = `A subject named "${name}" already exists.`;
  return conflict(text, { name: [text] });
};

/** A subject as the screens show it: the day it was added on the school's clock, not the browser's. */
function toItem({ timezone, ...subject }: repo.SubjectRow) {
  return { ...subject, createdAtLabel: formatLocalDate(subject.createdAt, timezone) };
}

export async function listSubjects(db: Db, schoolId: number) {
  return (await repo.listSubjects(db, schoolId)).map(toItem);
}

export async function viewSubject(db: Db, schoolId: number, id: number) {
  const subject = await repo.findSubject(db, schoolId, id);
  if (!subject) throw notFound(SUBJECT_NOT_FOUND);
  return { ...toItem(subject), teachers: await teachersForSubject(db, schoolId, subject.id) };
}

export async function createSubject(db: Db, schoolId: number, name: string) {
  try {
    const { id } = await repo.createSubject(db, schoolId, name);
    return { id, message: `Subject "${name}" added.` };
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(name);
    throw error;
  }
}

export async function renameSubject(db: Db, schoolId: number, id: number, name: string) {
  try {
    if (!(await repo.renameSubject(db, schoolId, id, name))) throw notFound(SUBJECT_NOT_FOUND);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(name);
    throw error;
  }
  return { id, message: 'Saved.' };
}

export async function deleteSubject(db: Db, schoolId: number, id: number) {
  if (!(await repo.deleteSubject(db, schoolId, id))) throw notFound(SUBJECT_NOT_FOUND);
  return { id, message: 'Subject deleted.' };
}
