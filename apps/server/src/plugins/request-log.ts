import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One line per request, as it completes, with its id (every line of a request carries it), method, path,
 * status and time; the arrival only at debug level. Fastify's default writes two full lines per request:
 * at the door or in a booking rush that is a fair share of what a request costs.
 */
/** The path as logged: a mailed token or a booking link in the query never reaches the log. */
export const loggedUrl = (url: string) => url.replace(/([?&](?:token|link)=)[^&#]*/gi, '$1[redacted]');

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
