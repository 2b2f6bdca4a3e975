// The text of a new API notebook: one request per service, with checks, and an environment.
export const NEW_NOTEBOOK_TEMPLATE = `# My API notebook

Each grey block is a request; the \`??\` lines after it are checks. Keys come from the active
connection (try **API Workbench: Try the Local Sandbox**), never from this file.

\`\`\`vars
city = Lisbon
\`\`\`

\`\`\`vars env=staging
city = Porto
\`\`\`

## Language model

\`\`\`llm name=chat
POST /chat/completions
Content-Type: application/json

{"model": "sandbox-chat", "messages": [{"role": "user", "content": "Three sights in {{city}}?"}]}

?? status == 200
?? json.choices[0].message.content exists
\`\`\`

## Maps

\`\`\`maps name=place
POST /v1/places:searchText
X-Goog-FieldMask: places.id,places.displayName,places.location

{"textQuery": "{{city}}"}

?? status == 200
?? json.places[0].displayName.text contains {{city}}
\`\`\`

## Realtime

A listener above a publish hears it: *Run All* starts the publish once the listener is subscribed.

\`\`\`realtime name=listen
LISTEN my-channel 5s

?? count >= 1
?? json[0].data.city == {{city}}
\`\`\`

\`\`\`realtime name=hello
PUBLISH my-channel greeting
{"city": "{{city}}"}

?? status == 200
\`\`\`
`;
