import type { schoolUpdate } from '@parley/domain/school';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { findSchool, updateSchool } from '../accounts/accounts.repository';

// The school's profile: every member reads it, admins change it.

const toProfile = (school: Awaited<ReturnType<typeof findSchool>>) => ({
  id: school.id,
  name: school.name,
  timezone: school.timezone,
  reminderTime: school.reminder_time.slice(0, 5),
  address: school.address,
  contactEmail: school.contact_email,
  phone: school.phone,
  website: school.website,
  verified: school.verified_at !== null,
});

export async function schoolProfileOf(db: Db, schoolId: number) {
  return toProfile(await findSchool(db, schoolId));
}

export async function updateSchoolProfile(db: Db, schoolId: number, body: z.output<typeof schoolUpdate>) {
  await updateSchool(db, schoolId, {
    name: body.name,
    timezone: body.timezone,
    ...(body.reminderTime !== undefined && { reminder_time: body.reminderTime }),
    ...(body.address !== undefined && { address: body.address }),
    ...(body.contactEmail !== undefined && { contact_email: body.contactEmail }),
    ...(body.phone !== undefined && { phone: body.phone }),
    ...(body.website !== undefined && { website: body.website }),
  });
  return schoolProfileOf(db, schoolId);
}
