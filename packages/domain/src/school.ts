import { EMAIL_PATTERN, passwordField, personNameField, schoolNameField } from './fields';
import { VALIDATION } from './messages';
import { z } from './zod';

// School profile, subjects, own profile and settings (issue 3).

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => (value === '' ? null : value))
    .nullable();

/** An IANA zone this runtime knows (the list the school's time-zone picker offers). */
export const timezoneField = z.string().refine((zone) => isTimeZone(zone), { message: 'Unknown time zone' });

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
}

/** A wall-clock time, "18:00". */
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Must be a time like 18:00');

export const schoolProfile = z.object({
  id: z.number(),
  name: z.string(),
  timezone: z.string(),
  /** When the day-before reminders go out, on the school's clock ("18:00"). */
  reminderTime: z.string(),
  address: z.string().nullable(),
  contactEmail: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  verified: z.boolean(),
});
export type SchoolProfile = z.infer<typeof schoolProfile>;

export const schoolUpdate = z.strictObject({
  name: schoolNameField,
  timezone: timezoneField,
  reminderTime: clockTime.optional(),
  address: optionalText(300).optional(),
  contactEmail: optionalText(254)
    .refine((value) => value === null || EMAIL_PATTERN.test(value), VALIDATION.invalidEmail)
    .optional(),
  phone: optionalText(40).optional(),
  website: optionalText(300).optional(),
});
export type SchoolUpdate = z.input<typeof schoolUpdate>;

export const subjectRequest = z.strictObject({
  name: z
    .string({ error: VALIDATION.required })
    .trim()
    .min(1, VALIDATION.required)
    .max(60, 'Name must be less than 60 characters'),
});
export type SubjectRequest = z.input<typeof subjectRequest>;

export const subjectItem = z.object({
  id: z.number(),
  name: z.string(),
  teacherCount: z.number(),
  studentCount: z.number(),
  createdAt: z.date(),
  /** "Thu 12 Mar 2026": the day it was added, on the school's clock (issue 36). */
  createdAtLabel: z.string(),
});
export type SubjectItem = z.infer<typeof subjectItem>;

export const subjectDetail = subjectItem.extend({
  teachers: z.array(z.object({ id: z.number(), name: z.string(), email: z.string() })),
});

export const profileUpdate = z.strictObject({
  title: optionalText(20).optional(),
  firstName: personNameField.optional(),
  lastName: personNameField.optional(),
  videoConferenceUrl: optionalText(500)
    .refine((value) => value === null || /^https:\/\/\S+$/.test(value), 'Must be an https:// link')
    .optional(),
});
export type ProfileUpdate = z.input<typeof profileUpdate>;

export const changePasswordRequest = z
  .strictObject({
    currentPassword: z.string({ error: VALIDATION.required }).min(1, VALIDATION.required).max(200),
    password: passwordField,
    confirmPassword: z.string().max(200).optional(),
  })
  .refine((value) => value.confirmPassword === undefined || value.confirmPassword === value.password, {
    path: ['confirmPassword'],
    message: VALIDATION.passwordsDiffer,
  });
export type ChangePasswordRequest = z.input<typeof changePasswordRequest>;

export const settingsUpdate = z.strictObject({
  notifications: z
    .strictObject({
      bookingConfirmations: z.boolean().optional(),
      eventReminders: z.boolean().optional(),
      bookingNotifications: z.boolean().optional(),
    })
    .optional(),
  display: z.strictObject({ theme: z.enum(['dark', 'light']).optional() }).optional(),
  push: z
    .strictObject({
      bookings: z.boolean().optional(),
      eventOpening: z.boolean().optional(),
      invitations: z.boolean().optional(),
      reminders: z.boolean().optional(),
    })
    .optional(),
});
export type SettingsUpdate = z.input<typeof settingsUpdate>;

export const settingsResponse = z.object({
  groupedSettings: z.record(z.string(), z.record(z.string(), z.unknown())),
});
