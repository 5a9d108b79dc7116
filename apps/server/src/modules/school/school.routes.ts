import { schoolProfile, schoolUpdate } from '@parley/domain/school';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import { findSchool, updateSchool } from '../accounts/accounts.repository';

const toProfile = (school: Awaited<ReturnType<typeof findSchool>>) => ({
  id: school.id,
  name: school.name,
  timezone: school.timezone,
  address: school.address,
  contactEmail: school.contact_email,
  phone: school.phone,
  website: school.website,
  verified: school.verified_at !== null,
});

export function schoolRoutes(api: Api, ctx: AppContext): void {
  const tags = ['school'];
  const security = [{ bearer: [] }];

  // Every member may read the school's profile (name, zone, contact); only admins change it.
  api.get(
    '/site/school',
    {
      onRequest: requireSession(ctx.db),
      schema: { tags, security, response: { 200: schoolProfile, ...errorResponses } },
    },
    async (request) => toProfile(await findSchool(ctx.db, sessionOf(request).schoolId)),
  );

  api.post(
    '/site/update-school',
    {
      onRequest: requireSession(ctx.db, ['admin']),
      schema: { tags, security, body: schoolUpdate, response: { 200: schoolProfile, ...errorResponses } },
    },
    async (request) => {
      const { schoolId } = sessionOf(request);
      const body = request.body;
      await updateSchool(ctx.db, schoolId, {
        name: body.name,
        timezone: body.timezone,
        ...(body.address !== undefined && { address: body.address }),
        ...(body.contactEmail !== undefined && { contact_email: body.contactEmail }),
        ...(body.phone !== undefined && { phone: body.phone }),
        ...(body.website !== undefined && { website: body.website }),
      });
      return toProfile(await findSchool(ctx.db, schoolId));
    },
  );
}
