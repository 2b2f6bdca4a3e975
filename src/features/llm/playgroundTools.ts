// The tools a playground model may call: the user's own maps and realtime operations, run against the
// active connection of that service, plus tools the user defines (a schema and a fixed reply, or a
// notebook cell that runs with the arguments as its variables). Every
// call is checked before it runs (known tool, arguments that are JSON and fit the schema) and every
// failure becomes a result the model is told about, so the conversation carries on.
// No vscode import: the editor hands in the service clients and the publish confirmation.
import type { MapsClient } from '../../services/maps/client';
import type { RealtimeRest } from '../../services/realtime/rest';
import type { ToolCall, ToolDefinition } from '../../services/llm';
import type { BuiltinToolName, CustomTool } from '../../services/llm/playgroundMessages';
import type { CellToolRunner } from './playgroundCellTool';
import { checkSchema } from './playgroundSchema';
import { errorText } from '../../core/errors';

/** The services the built-in tools run on; each getter throws a clear error when there is no connection. */
export interface ToolServices {
  maps(): { client: MapsClient; connection: string };
  realtime(): Promise<{ rest: RealtimeRest; connection: string }>;
  /** Asks the user before anything is published; false = declined. */
  confirmPublish(channel: string, event: string, data: string): Promise<boolean>;
  /** Runs the notebook cell of a user-defined tool; absent where notebooks cannot be read. */
  runCell?: CellToolRunner;
}

export interface ToolOutcome {
  status: 'done' | 'failed' | 'declined';
  /** What the model is sent (JSON text). */
  result: string;
  ranOn?: string;
}

const strictObject = (properties: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

export const BUILTIN_TOOLS: Readonly<Record<BuiltinToolName, ToolDefinition & { label: string; publishes?: boolean }>> = {
  search_places: {
    name: 'search_places',
    label: 'Search places (maps)',
    description: "Search places by a text query (a name, a kind of place, a city) on the user's maps connection.",
    parameters: strictObject({ query: { type: 'string', description: 'What to search for, e.g. "coffee in Lisbon"' } }),
    strict: true,
  },
  place_details: {
    name: 'place_details',
    label: 'Place details (maps)',
    description: 'Details of one place by its id (from search_places).',
    parameters: strictObject({ place_id: { type: 'string', description: 'The place id' } }),
    strict: true,
  },
  compute_route: {
    name: 'compute_route',
    label: 'Compute route (maps)',
    description: 'Distance and travel time of a route between two addresses or place names.',
    parameters: strictObject({
      origin: { type: 'string', description: 'Where the route starts (address or place name)' },
      destination: { type: 'string', description: 'Where it ends' },
      travel_mode: { type: 'string', enum: ['DRIVE', 'BICYCLE', 'WALK'] },
    }),
    strict: true,
  },
  validate_address: {
    name: 'validate_address',
    label: 'Validate address (maps)',
    description: 'Checks a postal address and returns its verdict and formatted form.',
    parameters: strictObject({
      address: { type: 'string', description: 'The address, one line' },
      region_code: { type: 'string', description: 'CLDR region code, e.g. US' },
    }),
    strict: true,
  },
  publish_to_channel: {
    name: 'publish_to_channel',
    label: 'Publish to a channel (realtime, asks first)',
    description: "Publishes an event to a realtime channel of the user's app.",
    parameters: strictObject({
      channel: { type: 'string' },
      event: { type: 'string' },
      data: { type: 'string', description: 'The event payload (JSON text or plain text)' },
    }),
    strict: true,
    publishes: true,
  },
  list_channels: {
    name: 'list_channels',
    label: 'List channels (realtime)',
    description: "Lists the occupied channels of the user's realtime app, optionally by name prefix.",
    parameters: strictObject({ prefix: { type: 'string', description: 'Name prefix, e.g. "presence-"; empty for all' } }),
    strict: true,
  },
};

/** Results are summarised: the model needs the facts, not every field of the response. */
const MAX_RESULT_CHARS = 4_000;

type Args = Record<string, unknown>;
const str = (a: Args, k: string): string => (typeof a[k] === 'string' ? a[k] : '');

async function runBuiltin(name: BuiltinToolName, a: Args, s: ToolServices): Promise<ToolOutcome> {
  switch (name) {
    case 'search_places': {
      const { client, connection } = s.maps();
      const r = await client.searchText({ textQuery: str(a, 'query'), maxResultCount: 5 });
      const places = (r.data.places ?? []).map((p) => ({
        id: p.id,
        name: p.displayName?.text,
        address: p.formattedAddress,
        location: p.location,
        rating: p.rating,
      }));
      return done({ places }, `Maps · ${connection}`);
    }
    case 'place_details': {
      const { client, connection } = s.maps();
      const p = (await client.getPlace(str(a, 'place_id'))).data;
      return done(
        {
          id: p.id,
          name: p.displayName?.text,
          address: p.formattedAddress,
          location: p.location,
          types: p.types,
          rating: p.rating,
          phone: p.internationalPhoneNumber,
          website: p.websiteUri,
        },
        `Maps · ${connection}`,
      );
    }
    case 'compute_route': {
      const { client, connection } = s.maps();
      const mode = str(a, 'travel_mode');
      const travelMode = mode === 'BICYCLE' || mode === 'WALK' ? mode : 'DRIVE';
      const r = await client.computeRoutes({ origin: { address: str(a, 'origin') }, destination: { address: str(a, 'destination') }, travelMode });
      const route = r.data.routes?.[0];
      if (!route) return { status: 'failed', result: JSON.stringify({ error: 'No route found between these places.' }), ranOn: `Maps · ${connection}` };
      return done({ distanceMeters: route.distanceMeters, duration: route.duration, travelMode }, `Maps · ${connection}`);
    }
    case 'validate_address': {
      const { client, connection } = s.maps();
      const region = str(a, 'region_code');
      const r = await client.validateAddress({ address: { addressLines: [str(a, 'address')], ...(region ? { regionCode: region } : {}) } });
      const res = r.data.result;
      return done(
        {
          verdict: res?.verdict,
          formattedAddress: res?.address?.formattedAddress,
          missing: res?.address?.missingComponentTypes,
          location: res?.geocode?.location,
        },
        `Maps · ${connection}`,
      );
    }
    case 'publish_to_channel': {
      const channel = str(a, 'channel');
      const event = str(a, 'event');
      const data = str(a, 'data');
      if (!(await s.confirmPublish(channel, event, data)))
        return { status: 'declined', result: JSON.stringify({ error: 'The user declined to publish this event.' }) };
      const { rest, connection } = await s.realtime();
      await rest.publish({ channels: [channel], name: event, data });
      return done({ published: true, channel, event }, `Realtime · ${connection}`);
    }
    case 'list_channels': {
      const { rest, connection } = await s.realtime();
      const prefix = str(a, 'prefix');
      const channels = await rest.channels(prefix ? { prefix } : {});
      return done({ channels: Object.keys(channels) }, `Realtime · ${connection}`);
    }
  }
}

function done(value: unknown, ranOn?: string): ToolOutcome {
  return { status: 'done', result: capped(JSON.stringify(value)), ranOn };
}

function capped(text: string): string {
  return text.length > MAX_RESULT_CHARS ? JSON.stringify({ truncated: true, start: text.slice(0, MAX_RESULT_CHARS) }) : text;
}

function failed(message: string, ranOn?: string): ToolOutcome {
  return { status: 'failed', result: JSON.stringify({ error: message }), ranOn };
}

/** The tools of one request: built-in ones switched on, and the user's own. */
export class ToolBox {
  private constructor(
    private readonly builtin: readonly BuiltinToolName[],
    private readonly custom: readonly (CustomTool & { schema: Record<string, unknown> })[],
    private readonly services: ToolServices,
    private readonly describeError: (e: unknown) => string,
  ) {}

  /** Checks the user's tool schemas first: an invalid one is refused with a clear message. */
  static async create(
    builtin: readonly BuiltinToolName[],
    custom: readonly CustomTool[],
    services: ToolServices,
    describeError: (e: unknown) => string,
  ): Promise<ToolBox> {
    const checked = [];
    const names = new Set<string>(builtin);
    for (const t of custom) {
      if (names.has(t.name)) throw new Error(`Two tools are named "${t.name}": tool names must differ.`);
      names.add(t.name);
      const c = await checkSchema(t.parameters || '{"type":"object","properties":{}}', `The parameters schema of tool "${t.name}"`);
      if (!c.ok) throw new Error(c.message);
      checked.push({ ...t, schema: c.schema });
    }
    return new ToolBox(builtin, checked, services, describeError);
  }

  get definitions(): ToolDefinition[] {
    return [
      ...this.builtin.map((n) => {
        const { label: _label, publishes: _publishes, ...def } = BUILTIN_TOOLS[n];
        return def;
      }),
      ...this.custom.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.schema })),
    ];
  }

  /** Runs one call. Never throws: every failure is an outcome the model and the user are told about. */
  async run(call: ToolCall): Promise<ToolOutcome> {
    const builtin = this.builtin.find((n) => n === call.name);
    const custom = this.custom.find((t) => t.name === call.name);
    if (!builtin && !custom) return failed(`The model called "${call.name}", which is not one of the tools switched on in this playground.`);
    let args: unknown;
    try {
      args = call.arguments.trim() ? JSON.parse(call.arguments) : {};
    } catch (e) {
      return failed(`The model sent arguments for "${call.name}" that are not valid JSON (${errorText(e)}): ${call.arguments.slice(0, 200)}`);
    }
    const schema = builtin ? BUILTIN_TOOLS[builtin].parameters : custom?.schema;
    const check = await checkSchema(JSON.stringify(schema ?? {}));
    const problems = check.ok ? check.validate(args) : [];
    if (problems.length > 0)
      return failed(`The arguments for "${call.name}" do not fit its schema: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
    try {
      if (custom?.cell) {
        if (!this.services.runCell) return failed(`"${call.name}" runs a notebook cell, and notebook cells cannot run here.`);
        const r = await this.services.runCell(custom.cell, args as Args);
        return { status: r.ok ? 'done' : 'failed', result: capped(r.result), ranOn: r.ranOn };
      }
      if (custom) return { status: 'done', result: custom.reply, ranOn: 'Fixed reply' };
      return await runBuiltin(builtin as BuiltinToolName, args as Args, this.services);
    } catch (e) {
      return failed(`"${call.name}" failed: ${this.describeError(e)}`);
    }
  }
}
