import { personNameField } from '@parley/domain/fields';
import {
  inviteRequest,
  type PersonDetail,
  parentRequest,
  studentRequest,
  teacherRequest,
} from '@parley/domain/people';
import { z } from '@parley/domain/zod';
import { PEOPLE_TEXT } from '../../lib/ui-text';
import type { PeopleKind } from './list-cache';

// The add and edit forms of a person, per list: the domain's request schemas (spec §5 field rules) and
// the values a form starts from.

export type FormMode = 'create' | 'edit';

export type StudyValue = { subjectId: number | null; teacherId: number | null };

/** Every field any of the person forms has; each form holds only its own (the schemas are strict). */
export type PersonFormValues = {
  title?: string | null;
  firstName: string;
  lastName: string;
  email?: string;
  subjectIds?: number[];
  studentIds?: number[];
  parentIds?: number[];
  subjects?: StudyValue[];
  sendInvite?: boolean;
};

/** A subject must be picked, once per student; the teacher may come later. */
export const studiesField = z
  .array(
    z.object({
      subjectId: z.number({ error: PEOPLE_TEXT.chooseSubject }).int().positive(),
      teacherId: z.number().int().positive().nullable(),
    }),
  )
  .max(50)
  .superRefine((rows, ctx) => {
    const seen = new Set<number>();
    rows.forEach((row, index) => {
      if (seen.has(row.subjectId)) {
        ctx.addIssue({ code: 'custom', path: [index, 'subjectId'], message: PEOPLE_TEXT.subjectTwice });
      }
      seen.add(row.subjectId);
    });
  });

const studentForm = studentRequest.extend({ subjects: studiesField.default([]) });

/** An admin's own fields: title and names (the email is their login). */
const adminEdit = z.strictObject({
  title: z.string().trim().max(20).nullable().optional(),
  firstName: personNameField,
  lastName: personNameField,
});

export function personSchema(kind: PeopleKind, mode: FormMode) {
  switch (kind) {
    case 'admins':
      return mode === 'create' ? inviteRequest : adminEdit;
    case 'teachers':
      return mode === 'create' ? teacherRequest : teacherRequest.omit({ sendInvite: true });
    case 'parents':
      return mode === 'create' ? parentRequest : parentRequest.omit({ sendInvite: true });
    case 'students':
      return mode === 'create' ? studentForm : studentForm.omit({ sendInvite: true });
  }
}

/** The fields of a form, for putting the server's field errors on them. */
export function personFields(kind: PeopleKind, mode: FormMode): Array<keyof PersonFormValues> {
  const names: Array<keyof PersonFormValues> =
    kind === 'admins' && mode === 'edit' ? ['firstName', 'lastName'] : ['firstName', 'lastName', 'email'];
  if (kind !== 'students' && !(kind === 'admins' && mode === 'create')) names.unshift('title');
  if (kind === 'teachers') names.push('subjectIds');
  if (kind === 'parents') names.push('studentIds');
  if (kind === 'students') names.push('parentIds', 'subjects');
  if (mode === 'create' && kind !== 'admins') names.push('sendInvite');
  return names;
}

export function emptyPersonValues(kind: PeopleKind): PersonFormValues {
  const values: PersonFormValues = { firstName: '', lastName: '', email: '' };
  if (kind === 'teachers') Object.assign(values, { title: '', subjectIds: [], sendInvite: true });
  if (kind === 'parents') Object.assign(values, { title: '', studentIds: [], sendInvite: true });
  if (kind === 'students') Object.assign(values, { parentIds: [], subjects: [], sendInvite: true });
  return values;
}

export function personValues(kind: PeopleKind, detail: PersonDetail): PersonFormValues {
  const names = { firstName: detail.firstName, lastName: detail.lastName };
  switch (kind) {
    case 'admins':
      return { title: detail.title ?? '', ...names };
    case 'teachers':
      return {
        title: detail.title ?? '',
        ...names,
        email: detail.email,
        subjectIds: detail.subjectIds ?? detail.subjects.map((subject) => subject.id),
      };
    case 'parents':
      return {
        title: detail.title ?? '',
        ...names,
        email: detail.email,
        studentIds: detail.children.map((child) => child.id),
      };
    case 'students':
      return {
        ...names,
        email: detail.email,
        parentIds: detail.parents.map((parent) => parent.id),
        subjects: detail.studies.map((study) => ({ subjectId: study.subjectId, teacherId: study.teacherId })),
      };
  }
}

/** What is sent: an empty title becomes "no title". */
export function personBody<T extends PersonFormValues>(values: T): T {
  if (values.title === undefined) return values;
  const title = values.title?.trim() ? values.title.trim() : null;
  return { ...values, title };
}
