// GraphQL requests of `.http` files → the JSON body the server receives. REST Client marks them
// with `X-REQUEST-TYPE: GraphQL`; httpYac knows them by a body starting with query, mutation or
// subscription, and lets the file define `fragment … on …` blocks the query spreads (`...Parts`).
// Both write the query, a blank line, then the variables as JSON.
import type { RawRequest } from './curl';

const REQUEST_TYPE = 'x-request-type';
const OPERATION = /^\s*(query|mutation|subscription)\b/;

/** The fragments a query spreads, and the ones they spread, each once. */
function spreadFragments(query: string, fragments: ReadonlyMap<string, string>): string[] {
  const used: string[] = [];
  const visit = (text: string) => {
    for (const m of text.matchAll(/\.\.\.\s*([A-Za-z_]\w*)/g)) {
      const name = m[1];
      if (!fragments.has(name) || used.includes(name)) continue;
      used.push(name);
      visit(fragments.get(name)!);
    }
  };
  visit(query);
  return used.map((n) => fragments.get(n)!);
}

/** The request with a JSON `{query, variables}` body when it is GraphQL; a reason when it cannot be read; unchanged otherwise. */
export function graphqlRequest(req: RawRequest, fragments: ReadonlyMap<string, string>): RawRequest | string {
  const marked = req.headers.some(([n, v]) => n.toLowerCase() === REQUEST_TYPE && v.trim().toLowerCase() === 'graphql');
  const body = req.body ?? '';
  if (!marked && !OPERATION.test(body)) return req;
  const split = /\n\s*\n(?=\s*\{)/.exec(body);
  const queryText = (split ? body.slice(0, split.index) : body).trim();
  const variablesText = split ? body.slice(split.index + split[0].length).trim() : '';
  let variables: unknown;
  if (variablesText) {
    try {
      variables = JSON.parse(variablesText);
    } catch {
      return 'the GraphQL variables after the query are not JSON';
    }
  }
  const query = [queryText, ...spreadFragments(queryText, fragments)].join('\n\n');
  const headers = req.headers.filter(([n]) => n.toLowerCase() !== REQUEST_TYPE && n.toLowerCase() !== 'content-type');
  headers.push(['Content-Type', 'application/json']);
  return { ...req, headers, body: JSON.stringify(variables === undefined ? { query } : { query, variables }, null, 2) };
}
