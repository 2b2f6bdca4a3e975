// What an empty answer says: what was searched and, against the local sandbox, what it knows, so
// "pizza in Springfield" finding nothing is not a mystery. vscode-free: unit-tested.
import { KNOWN_PLACE_KINDS } from '../../sandbox/maps/kinds';

/** The sandbox's places: GeoNames towns of 5,000+ inhabitants (src/sandbox/maps/gazetteer.ts). */
export const SANDBOX_CITIES = 'the towns and cities of the world with at least 5,000 inhabitants (GeoNames, about 49,000)';

/** "pizza, restaurant, cafe, …": one word per kind the sandbox generates places for. */
export function sandboxKinds(): string {
  return KNOWN_PLACE_KINDS.map((k) => k.words[0]).join(', ');
}

export function sandboxKnowledge(): string {
  return `The local sandbox knows ${SANDBOX_CITIES}, and in and around them these kinds of places: ${sandboxKinds()}. Try e.g. “pizza in Mountain View”, “museum in Lyon” or a city name.`;
}

/** `searched` says what and how, e.g. `No places found for “pizza in Atlantis” (Text Search).` */
export function emptyResultText(searched: string, againstSandbox: boolean): string {
  return againstSandbox ? `${searched} ${sandboxKnowledge()}` : searched;
}
