// The names under which requests and answers carry keys: headers, query parameters, form and JSON
// fields, variables. One rule for every importer (Postman, cURL, .http), the cell parser and the
// redactor, so a name one of them takes out is a name the others mask. Built from real
// conventions: OAuth 2 (client_secret, refresh_token, access_token, id_token, code_verifier,
// password, assertion), Azure APIM (Ocp-Apim-Subscription-Key), GitLab (Private-Token), Firebase
// (?auth=), Azure SAS (sig=), Pusher (auth_signature), and the common X-API-Key / X-Auth-Token /
// X-Access-Token / api_key / apikey / api-key, `*_key`, `*token`, `*secret`, `*password`.
import { remembered } from './once';

/** The last word of a name that holds a key: `client_secret`, `X-Auth-Token`, `subscriptionKey`. */
const SECRET_WORDS = new Set([
  'key',
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'signature',
  'sig',
  'assertion',
  'verifier',
  'auth',
  'authorization',
  'cookie',
  // Written as one word: `apikey`, `accessToken` lower-cased, `X-APIKEY`.
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'authkey',
  'accesstoken',
  'authtoken',
  'apitoken',
  'refreshtoken',
  'idtoken',
  'sessiontoken',
  'clientsecret',
  'appsecret',
  'apisecret',
]);

/**
 * Words that make a `*token` / `*key` name something other than a key: a page token names a
 * page of results (`page_token`, `nextPageToken`, `continuation_token`), an idempotency key or a
 * public key is meant to be seen, a partition or sort key names data. Masking them would hide what
 * a user needs to read, and an importer would turn them into secrets to store.
 */
const NOT_SECRET_WORDS = new Set([
  'page',
  'next',
  'prev',
  'previous',
  'continuation',
  'sync',
  'cursor',
  'resume',
  'pagination',
  'paging',
  'idempotency',
  'public',
  'publishable',
  'partition',
  'sort',
  'primary',
  'foreign',
  'cache',
  'dedup',
  'deduplication',
  'websocket',
  'max',
]);

/**
 * Matches wherever a secret name could be: each word of a name is a piece of it (wordsOf), so a
 * text holding no SECRET_WORDS entry, in any case, holds no name isSecretName() or isSecretParam()
 * accepts. The redactor's name patterns call back once per `"member":` or `name=` they meet (four
 * hundred in a list of models), so a text without one is not scanned for them.
 */
const SECRET_WORD_ANYWHERE = new RegExp([...SECRET_WORDS].join('|'), 'i');

/** False when no name in `text` can be one isSecretName() or isSecretParam() accepts (see SECRET_WORD_ANYWHERE). */
export function mayHoldSecretName(text: string): boolean {
  return SECRET_WORD_ANYWHERE.test(text);
}

/** `X-Hub-Signature-256` → x, hub, signature; `nextPageToken` → next, page, token. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '' && !/^\d+$/.test(w));
}

/**
 * True for a header, JSON member, form field or variable named like a key (`client_secret`,
 * `Ocp-Apim-Subscription-Key`, `X-Auth-Token`, `Proxy-Authorization`, `apiKey`), false for a page
 * token, an idempotency key, a public key, and for a bare `key`: in a body or an answer that is as
 * often a map's key (`{"key": "Content-Type", "value": …}`, Pusher's public app key) as a secret.
 */
export function isSecretName(name: string): boolean {
  return remembered(namesSeen, name, NAMES_SEEN_MAX, judgeName);
}

/**
 * isSecretName() of names already judged: the redactor asks it of every member of every answer
 * (`"id"`, `"object"` a hundred times in a list of models), and splitting a name into words was
 * ~3% of a 20-cell CLI run (issue 39). Bounded: emptied when full.
 */
const namesSeen = new Map<string, boolean>();
const NAMES_SEEN_MAX = 4096;

function judgeName(name: string): boolean {
  const words = wordsOf(name);
  const last = words.at(-1);
  if (last === undefined || !SECRET_WORDS.has(last)) return false;
  if (words.length === 1 && last === 'key') return false;
  return !words.some((w) => NOT_SECRET_WORDS.has(w));
}

/** A query parameter named like a key: every isSecretName() name, and a bare `key` (Google's `?key=`). */
export function isSecretParam(name: string): boolean {
  return name.toLowerCase() === 'key' || isSecretName(name);
}

/** A signature (`auth_signature`, `X-Pusher-Signature`, `sig`): as secret as the key that made it, and made afresh per request. */
export function isSignatureName(name: string): boolean {
  const last = wordsOf(name).at(-1);
  return last === 'signature' || last === 'sig';
}
