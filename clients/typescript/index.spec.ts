import { createPartnerClient } from './index';

describe('createPartnerClient', () => {
  it('sends every request to the base URL with the API key as X-API-KEY', async () => {
    const seen: Request[] = [];
    const client = createPartnerClient({
      baseUrl: 'http://prm.test:3000',
      apiKey: 'prm_secret',
      fetch: async (request) => {
        seen.push(request);
        return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    await client.GET('/api/v1/vendors/leads/{leadId}', { params: { path: { leadId: 7 } } });
    await client.PUT('/api/v1/vendors/leads/{leadId}/approve', { params: { path: { leadId: 7 } } });
    expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET http://prm.test:3000/api/v1/vendors/leads/7',
      'PUT http://prm.test:3000/api/v1/vendors/leads/7/approve',
    ]);
    expect(seen.map((request) => request.headers.get('x-api-key'))).toEqual(['prm_secret', 'prm_secret']);
  });
});
