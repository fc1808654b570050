/**
 * The five places of the panel, in navigation order. The address is `#/<place>`, so a reload, the
 * back button and Electron's file:// page all keep the place without a router.
 */
export const PLACE_IDS = ['projects', 'maintenance', 'conflicts', 'telemetry', 'settings'] as const;
export type PlaceId = (typeof PLACE_IDS)[number];

export const DEFAULT_PLACE: PlaceId = 'projects';

export function isPlaceId(value: string): value is PlaceId {
  return (PLACE_IDS as readonly string[]).includes(value);
}

export function placeHref(place: PlaceId): string {
  return `#/${place}`;
}

/** The place named by the address, or undefined when the fragment names none. */
export function placeFromHash(hash: string): PlaceId | undefined {
  const match = /^#\/([a-z-]+)\/?$/.exec(hash);
  return match?.[1] !== undefined && isPlaceId(match[1]) ? match[1] : undefined;
}
