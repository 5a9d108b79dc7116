import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for Stripe's API on 127.0.0.1: it records every request (method, path, form fields) and
// answers with Stripe-shaped objects, so the real Stripe library talks to it by host and port.

export type RecordedRequest = {
  method: string;
  path: string;
  form: URLSearchParams;
  headers: Record<string, unknown>;
};

export type StripeStandIn = {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
};

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = [];
  let counter = 0;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      const form = new URLSearchParams(body);
      requests.push({ method: request.method ?? '', path, form, headers: request.headers });
      counter += 1;
      const created = Math.floor(Date.now() / 1000);
      const send = (status: number, json: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${counter}` });
        response.end(JSON.stringify(json));
      };
      if (request.method === 'POST' && path === '/v1/customers') {
        return send(200, {
          id: `cus_standin_${counter}`,
          object: 'customer',
          created,
          name: form.get('name'),
          email: form.get('email'),
          metadata: { schoolId: form.get('metadata[schoolId]') },
          livemode: false,
        });
      }
      if (request.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_standin_${counter}`;
        return send(200, {
          id,
          object: 'checkout.session',
          created,
          mode: form.get('mode'),
          customer: form.get('customer'),
          payment_status: 'unpaid',
          status: 'open',
          metadata: { schoolId: form.get('metadata[schoolId]'), planId: form.get('metadata[planId]') },
          url: `https://checkout.stripe.test/c/pay/${id}`,
          livemode: false,
        });
      }
      if (request.method === 'POST' && path === '/v1/billing_portal/sessions') {
        return send(200, {
          id: `bps_standin_${counter}`,
          object: 'billing_portal.session',
          created,
          customer: form.get('customer'),
          return_url: form.get('return_url'),
          url: `https://billing.stripe.test/p/session/${counter}`,
          livemode: false,
        });
      }
      send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
