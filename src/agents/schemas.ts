// The tools' inputs: validated once here, with zod, and described to agents by the JSON Schema
// generated from the same schemas (toolDescriptors), so both front ends accept exactly the same.
// The travel modes come from the maps client; the catalogue (src/catalogue) should feed these
// enums and their descriptions once it exists.
import * as z from 'zod/mini';
import { TRAVEL_MODES } from '../services/maps/client';

const connection = (service: string) =>
  z.optional(z.string().check(z.minLength(1, 'give a connection name'), z.describe(`The ${service} connection to use, by name; default: the first one.`)));

export const listResourcesInput = z.object({
  service: z
    .enum(['llm', 'maps', 'realtime'])
    .check(z.describe('Which service: llm (lists models), maps (lists the maps APIs) or realtime (lists occupied channels).')),
  connection: connection('chosen service'),
});

const message = z.object({
  role: z.enum(['system', 'user', 'assistant']).check(z.describe('Who says it.')),
  content: z.string().check(z.describe('The text.')),
});

export const llmChatInput = z
  .object({
    prompt: z.optional(
      z.string().check(z.minLength(1, 'the prompt is empty'), z.describe('The question or instruction (one user message). Give this or messages.')),
    ),
    messages: z.optional(
      z
        .array(message)
        .check(z.minLength(1, 'give at least one message'), z.maxLength(100), z.describe('A whole conversation, oldest first. Give this or prompt.')),
    ),
    model: z.optional(
      z.string().check(z.minLength(1), z.describe('The model id (list_resources with service "llm" lists them); default: the connection\'s default model.')),
    ),
    maxTokens: z.optional(
      z.number().check(z.int(), z.gte(1), z.lte(32_768), z.describe('The longest answer, in tokens (also what the cost estimate assumes).')),
    ),
    connection: connection('language-model'),
  })
  .check(
    z.refine((v) => (v.prompt === undefined) !== (v.messages === undefined), { message: 'give either prompt or messages (one of them)', path: ['prompt'] }),
  );

export const searchPlacesInput = z.object({
  query: z
    .string()
    .check(z.minLength(1, 'the query is empty'), z.maxLength(500), z.describe('What to find, as a person would type it: "pizza near Alexanderplatz, Berlin".')),
  maxResults: z.optional(z.number().check(z.int(), z.gte(1), z.lte(20), z.describe('How many places at most (1-20, default 5).'))),
  connection: connection('maps'),
});

const waypoint = (which: string) =>
  z
    .string()
    .check(
      z.minLength(1, `the ${which} is empty`),
      z.maxLength(500),
      z.describe(
        `The ${which}: an address ("Unter den Linden 1, Berlin"), "latitude,longitude" ("52.52,13.405") or a place id ("places/ChIJ…" from maps_search_places).`,
      ),
    );

export const computeRouteInput = z.object({
  origin: waypoint('start'),
  destination: waypoint('destination'),
  travelMode: z.optional(z.enum(TRAVEL_MODES).check(z.describe('How to travel (default DRIVE).'))),
  connection: connection('maps'),
});

const channelName = z
  .string()
  .check(
    z.minLength(1, 'the channel is empty'),
    z.maxLength(200),
    z.describe('The channel name, e.g. "orders" or "private-team" (list_resources with service "realtime" lists occupied ones).'),
  );

export const publishInput = z.object({
  channel: channelName,
  event: z
    .string()
    .check(z.minLength(1, 'the event name is empty'), z.maxLength(200), z.describe('The event name subscribers listen for, e.g. "lunch-suggestions".')),
  data: z.unknown().check(z.describe('The payload: any JSON value (an object, a string, …); everyone subscribed to the channel receives it.')),
  connection: connection('realtime'),
});

export const recentMessagesInput = z.object({
  channel: channelName,
  waitSeconds: z.optional(
    z.number().check(z.gte(0), z.lte(30), z.describe('When nothing has arrived yet, wait up to this long for a first message (0-30, default 0).')),
  ),
  connection: connection('realtime'),
});

export const runNotebookInput = z.object({
  path: z
    .string()
    .check(
      z.minLength(1, 'the path is empty'),
      z.describe('The API notebook (*.awb.md) to run, relative to the folder the server serves, or absolute inside it.'),
    ),
});

export type ListResourcesInput = z.infer<typeof listResourcesInput>;
export type LlmChatInput = z.infer<typeof llmChatInput>;
export type SearchPlacesInput = z.infer<typeof searchPlacesInput>;
export type ComputeRouteInput = z.infer<typeof computeRouteInput>;
export type PublishInput = z.infer<typeof publishInput>;
export type RecentMessagesInput = z.infer<typeof recentMessagesInput>;
export type RunNotebookInput = z.infer<typeof runNotebookInput>;
