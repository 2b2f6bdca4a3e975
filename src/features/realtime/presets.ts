// Add Connection presets for realtime: Pusher Channels by cluster, soketi with its defaults, and any
// other self-hosted Pusher-compatible server (host, port, TLS). Cluster hosts: ws-<cluster>.pusher.com
// and api-<cluster>.pusher.com (pusher-js defaults, pusher-http-node `cluster` option).

/** A kind of connection the Connect… command offers: the questions it asks and the settings entry it builds. */
export interface ConnectionPreset {
  label: string;
  detail: string;
  /** Questions asked in order; answers land in the draft under `key`. */
  /** `choices`: picked from a list (with "Other…" falling back to typing). */
  fields: {
    key: string;
    prompt: string;
    placeholder?: string;
    validate?: (v: string) => string | undefined;
    value?: string;
    choices?: { label: string; description?: string }[];
  }[];
  /** The settings entry built from the answers (never contains a key). */
  build(d: Record<string, string>): Record<string, unknown>;
  keyPrompt: string;
  envHint: string;
  /** A local server that takes no key: none is asked for, stored or sent (auth placement "none"). */
  keyless?: boolean;
}

/** Pusher Channels clusters (https://pusher.com/docs/channels/miscellaneous/clusters/). */
export const PUSHER_CLUSTERS: readonly { id: string; region: string }[] = [
  { id: 'mt1', region: 'N. Virginia (default)' },
  { id: 'us2', region: 'Ohio' },
  { id: 'us3', region: 'Oregon' },
  { id: 'eu', region: 'Ireland' },
  { id: 'ap1', region: 'Singapore' },
  { id: 'ap2', region: 'Mumbai' },
  { id: 'ap3', region: 'Tokyo' },
  { id: 'ap4', region: 'Sydney' },
  { id: 'sa1', region: 'São Paulo' },
];

const required = (v: string) => (v.trim() ? undefined : 'Required');
/** Just the host: a URL or host:port here made URLs like http://[https://…]:6001 that nothing opens. */
const hostName = (v: string) => {
  const h = v.trim();
  if (!h) return 'Required';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(h)) return 'Only the host name, without http:// or ws:// (TLS is asked below)';
  if (/^([^:[\]]+|\[[^\]]*\]):\d*$/.test(h)) return 'Only the host name: the port is asked next';
  if (/[\s/?#@]/.test(h)) return 'Only the host name or IP address, e.g. 127.0.0.1 or soketi.example.com';
  return undefined;
};
const port = (v: string) => (/^\d+$/.test(v) && +v > 0 && +v < 65536 ? undefined : 'A port number');
const yesNo = (v: string) => (/^(yes|no)$/i.test(v) ? undefined : 'yes or no');
const SECRET_PROMPT = 'App secret (used only to sign requests locally; never sent)';

/** What every self-hosted server is asked after its host (soketi's default port is also the usual one). */
const PORT_AND_TLS: ConnectionPreset['fields'] = [
  { key: 'port', prompt: 'Port', value: '6001', validate: port },
  { key: 'tls', prompt: 'Use TLS (wss/https)? yes or no', value: 'no', validate: yesNo },
];

/** A self-hosted server's connection setting from the answers: host, port and TLS instead of a cluster. */
function selfHostedConnection(d: Record<string, string>): Record<string, unknown> {
  return { appId: d.appId, key: d.key, host: d.host, port: Number(d.port), useTLS: /^yes$/i.test(d.tls ?? '') };
}

export function realtimePresets(): ConnectionPreset[] {
  return [
    {
      label: 'Pusher Channels',
      detail: 'pick a cluster: ws-<cluster>.pusher.com / api-<cluster>.pusher.com · app id, key and secret',
      fields: [
        {
          key: 'cluster',
          prompt: "Cluster (the app's dashboard shows it)",
          value: 'mt1',
          validate: (v) => (/^[a-z0-9-]+$/.test(v) ? undefined : 'e.g. mt1 or eu'),
          choices: PUSHER_CLUSTERS.map((c) => ({ label: c.id, description: `${c.region} · ws-${c.id}.pusher.com` })),
        },
        { key: 'appId', prompt: 'App id', validate: required },
        { key: 'key', prompt: 'App key (public)', validate: required },
      ],
      build: (d) => ({ appId: d.appId, key: d.key, cluster: d.cluster }),
      keyPrompt: SECRET_PROMPT,
      envHint: 'PUSHER_APP_SECRET',
    },
    {
      label: 'soketi (self-hosted)',
      detail: 'Pusher-compatible server · defaults: 127.0.0.1:6001, no TLS, app-id / app-key / app-secret',
      fields: [
        { key: 'host', prompt: 'Host', value: '127.0.0.1', validate: hostName },
        ...PORT_AND_TLS,
        { key: 'appId', prompt: 'App id (SOKETI_DEFAULT_APP_ID)', value: 'app-id', validate: required },
        { key: 'key', prompt: 'App key (SOKETI_DEFAULT_APP_KEY)', value: 'app-key', validate: required },
      ],
      build: selfHostedConnection,
      keyPrompt: `${SECRET_PROMPT}; soketi's default is app-secret`,
      envHint: 'SOKETI_DEFAULT_APP_SECRET',
    },
    {
      label: 'Other self-hosted Pusher-compatible server',
      detail: 'Laravel Reverb, laravel-websockets, the local sandbox on another machine, … · host, port and TLS',
      fields: [
        { key: 'host', prompt: 'Host', placeholder: '127.0.0.1', validate: hostName },
        ...PORT_AND_TLS,
        { key: 'appId', prompt: 'App id', validate: required },
        { key: 'key', prompt: 'App key (public)', validate: required },
      ],
      build: selfHostedConnection,
      keyPrompt: SECRET_PROMPT,
      envHint: 'PUSHER_APP_SECRET',
    },
  ];
}
