import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One line per request, as it completes, with its id (every line of a request carries it), method, path,
 * status and time; the arrival only at debug level. Fastify's default writes two full lines per request:
 * at the door or in a booking rush that is a fair share of what a request costs.
 */

/**
 * Every bearer secret a URL can carry, in one list (request-log.test.ts holds the API and the web app to
 * it): query parameters with a mailed token, a personal booking link, a booking link's code or a ticket's
 * code, and the paths whose next segment is one (a ticket's QR address, a booking link's page).
 */
export const SECRET_PARAMETERS = ['token', 'link', 'code', 'ticketId'];
export const SECRET_PATHS = ['/t/', '/book/event/', '/book/ptevent/'];

const secretParameter = new RegExp(`([?&](?:${SECRET_PARAMETERS.join('|')})=)[^&#]*`, 'gi');
const secretSegment = new RegExp(
  `^(${SECRET_PATHS.map((path) => path.replaceAll('/', '\\/')).join('|')})[^/?#]+`,
);

/** The path as logged: no secret of the list above ever reaches the log. */
export const loggedUrl = (url: string) =>
  url.replace(secretSegment, '$1[redacted]').replace(secretParameter, '$1[redacted]');

export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ method: request.method, url: loggedUrl(request.url) }, 'incoming');
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: loggedUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else reply.log.info(line, 'request');
  }
}
