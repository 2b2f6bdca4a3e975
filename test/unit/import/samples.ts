// Real-world inputs, as the providers' docs publish them (keys swapped for recognisable fakes so
// a test can prove they never reach the notebook).

export const OPENAI_KEY = 'sk-proj-ImportTestKey0123456789abcdefABCDEF';
export const GOOGLE_KEY = 'AIzaSyImportTestKey0123456789abcdefgh';
export const PUSHER_SIGNATURE = 'da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c';
export const POSTMAN_TOKEN = 'sk-postman-ImportTestToken0123456789';

/** platform.openai.com/docs/api-reference/chat/create, verbatim (the key a shell variable). */
export const OPENAI_CHAT_CURL = `curl https://api.openai.com/v1/chat/completions \\
  -H "Content-Type: application/json" \\
  -H "Authorization: Bearer $OPENAI_API_KEY" \\
  -d '{
    "model": "gpt-4o",
    "messages": [
      {
        "role": "developer",
        "content": "You are a helpful assistant."
      },
      {
        "role": "user",
        "content": "Hello!"
      }
    ]
  }'`;

/** The same with the key pasted in, as users do. */
export const OPENAI_CHAT_CURL_WITH_KEY = OPENAI_CHAT_CURL.replace('$OPENAI_API_KEY', OPENAI_KEY);

/** developers.google.com/maps/documentation/places/web-service/text-search (key pasted in). */
export const PLACES_TEXT_SEARCH_CURL = `curl -X POST -d '{
  "textQuery" : "Lisbon"
}' \\
-H 'Content-Type: application/json' -H 'X-Goog-Api-Key: ${GOOGLE_KEY}' \\
-H 'X-Goog-FieldMask: places.displayName,places.formattedAddress,places.priceLevel' \\
'https://places.googleapis.com/v1/places:searchText'`;

/** developers.google.com/maps/documentation/routes/compute_route_directions, key in the query this time. */
export const ROUTES_CURL = `curl -X POST -H 'content-type: application/json' -d '{"origin":{"address":"Lisbon"},"destination":{"address":"Porto"},"travelMode":"DRIVE"}' \\
-H 'X-Goog-FieldMask: routes.duration,routes.distanceMeters' \\
"https://routes.googleapis.com/directions/v2:computeRoutes?key=${GOOGLE_KEY}"`;

/** pusher.com/docs/channels/library_auth_reference/rest-api (publish an event), cluster eu. */
export const PUSHER_PUBLISH_CURL = `curl -H "Content-Type: application/json" -d '{"data":"{\\"message\\":\\"hello world\\"}","name":"my-event","channel":"my-channel"}' \\
"https://api-eu.pusher.com/apps/3/events?body_md5=2c99321eeba901356c4c7998da9be9e0&auth_version=1.0&auth_key=278d425bdf160c739803&auth_timestamp=1353088179&auth_signature=${PUSHER_SIGNATURE}"`;

/** REST Client syntax: file variables, a named request referenced later, comments, an outside host. */
export const REST_CLIENT_FILE = `# Requests for the OpenAI API and Google Places.
@baseUrl = https://api.openai.com/v1
@city = Lisbon
@token = ${OPENAI_KEY}

### List the models
# @name models
GET {{baseUrl}}/models
Authorization: Bearer {{token}}

###
// Ask the first model about the city
POST {{baseUrl}}/chat/completions
Authorization: Bearer {{token}}
Content-Type: application/json

{
  "model": "{{models.response.body.$.data[0].id}}",
  "messages": [{"role": "user", "content": "What should I see in {{city}}?"}]
}

### Find the city
# @name place
POST https://places.googleapis.com/v1/places:searchText
X-Goog-Api-Key: ${GOOGLE_KEY}
X-Goog-FieldMask: places.id,places.displayName

{"textQuery": "{{city}}"}

### Something else entirely
GET https://httpbin.org/anything?key=${GOOGLE_KEY}
Accept: application/json
`;

/** Postman v2.1: a folder, collection variables, bearer auth on the collection, a test script. */
export const POSTMAN_COLLECTION = JSON.stringify({
  info: {
    _postman_id: 'b5f1c0de-0000-4000-8000-000000000001',
    name: 'Workbench sample',
    schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
  },
  auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{openaiToken}}', type: 'string' }] },
  variable: [
    { key: 'baseUrl', value: 'https://api.openai.com/v1' },
    { key: 'openaiToken', value: POSTMAN_TOKEN },
    { key: 'question', value: 'Hello there' },
  ],
  item: [
    {
      name: 'Language model',
      item: [
        {
          name: 'List models',
          event: [{ listen: 'test', script: { type: 'text/javascript', exec: ['pm.test("ok", function () {', '  pm.response.to.have.status(200);', '});'] } }],
          request: { method: 'GET', header: [], url: { raw: '{{baseUrl}}/models', host: ['{{baseUrl}}'], path: ['models'] } },
        },
        {
          name: 'Chat',
          request: {
            method: 'POST',
            header: [{ key: 'Content-Type', value: 'application/json' }],
            body: {
              mode: 'raw',
              raw: '{"model": "sandbox-chat", "messages": [{"role": "user", "content": "{{question}}"}]}',
              options: { raw: { language: 'json' } },
            },
            url: { raw: '{{baseUrl}}/chat/completions', host: ['{{baseUrl}}'], path: ['chat', 'completions'] },
          },
        },
      ],
    },
    {
      name: 'Places search',
      request: {
        auth: {
          type: 'apikey',
          apikey: [
            { key: 'key', value: 'X-Goog-Api-Key' },
            { key: 'value', value: GOOGLE_KEY },
            { key: 'in', value: 'header' },
          ],
        },
        method: 'POST',
        header: [
          { key: 'X-Goog-FieldMask', value: 'places.id,places.displayName' },
          { key: 'Content-Type', value: 'application/json' },
        ],
        body: { mode: 'raw', raw: '{"textQuery": "Porto"}' },
        url: 'https://places.googleapis.com/v1/places:searchText',
      },
    },
  ],
});

export const ALL_SECRETS = [OPENAI_KEY, GOOGLE_KEY, PUSHER_SIGNATURE, POSTMAN_TOKEN];
