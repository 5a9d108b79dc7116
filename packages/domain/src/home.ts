import { siteIndexResponse } from './auth';
import { myEventsFields } from './booking';
import { activeEventItem } from './events';
import { z } from './zod';

/**
 * GET site/index: spec §3 Home data. The admin's tiles and Event Bookings list (zeros and [] for other
 * roles), and every user's "My Events" lists for the roles they hold.
 */
export const homeDataResponse = siteIndexResponse
  .extend({
    eventsCount: z.number(),
    teachersCount: z.number(),
    parentsCount: z.number(),
    studentsCount: z.number(),
    activeEvents: z.array(activeEventItem),
  })
  .extend(myEventsFields.shape);
export type HomeData = z.infer<typeof homeDataResponse>;
