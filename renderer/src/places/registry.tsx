import type { ComponentType } from 'react';
import type { IconName } from '../components/index.js';
import type { PlaceId } from '../navigation.js';
import { ConflictsPlace } from './conflicts/index.js';
import { HomePlace } from './home/index.js';
import { MaintenancePlace } from './maintenance/index.js';
import { ProjectsPlace } from './projects/index.js';
import { SearchPlace } from './search/index.js';
import { SettingsPlace } from './settings/index.js';
import { TelemetryPlace } from './telemetry/index.js';

export interface PlaceDefinition {
  id: PlaceId;
  label: string;
  icon: IconName;
  Component: ComponentType;
}

/** The shell renders these in order; each place owns everything inside its own folder. */
export const PLACES: readonly PlaceDefinition[] = [
  { id: 'home', label: 'Home', icon: 'home', Component: HomePlace },
  { id: 'projects', label: 'Projects', icon: 'projects', Component: ProjectsPlace },
  { id: 'search', label: 'Search', icon: 'search', Component: SearchPlace },
  { id: 'maintenance', label: 'Maintenance', icon: 'maintenance', Component: MaintenancePlace },
  { id: 'conflicts', label: 'Conflicts', icon: 'conflicts', Component: ConflictsPlace },
  { id: 'telemetry', label: 'Telemetry', icon: 'telemetry', Component: TelemetryPlace },
  { id: 'settings', label: 'Settings', icon: 'settings', Component: SettingsPlace },
];

export function placeById(id: PlaceId): PlaceDefinition {
  const place = PLACES.find((candidate) => candidate.id === id);
  if (!place) throw new Error(`No place ${id}`);
  return place;
}
