/**
 * The sections of Settings, in the order the page shows them: each a panel with its own address
 * (`#/settings?section=<id>`, placeHref), listed at the top of the page (SettingsSections). The title is
 * the panel's heading and the link's words, so the two never say different things. `needsConfig`: drawn
 * only once config.json is read.
 */
export const SECTIONS = {
  files: { id: 'files', title: 'Where Steward keeps its files', needsConfig: true },
  agents: { id: 'agents', title: 'Agents and their folders', needsConfig: true },
  importing: { id: 'importing', title: 'Importing conversations', needsConfig: true },
  forgotten: { id: 'forgotten', title: 'Forgotten conversations and projects', needsConfig: true },
  projectNotes: { id: 'project-notes', title: 'Project notes', needsConfig: true },
  agentNotes: { id: 'notes-for-agents', title: 'Notes for your agents', needsConfig: true },
  computer: { id: 'this-computer', title: 'This computer', needsConfig: true },
  cacheRetention: { id: 'cache-retention', title: 'Cache retention', needsConfig: false },
  about: { id: 'about', title: 'About this Steward', needsConfig: false },
} as const satisfies Record<string, SettingsSection>;

export interface SettingsSection {
  id: string;
  title: string;
  needsConfig: boolean;
}

export const SECTION_LIST: readonly SettingsSection[] = Object.values(SECTIONS);
