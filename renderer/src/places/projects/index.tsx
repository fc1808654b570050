import type { ReactElement } from 'react';
import { EmptyState, PlaceHeader } from '../../components/index.js';

/**
 * Projects: one row per working directory the agents worked in, with its sessions and notes.
 * The capture issue fills this in from `Projects.List`; until then it explains the empty state.
 */
export function ProjectsPlace(): ReactElement {
  return (
    <>
      <PlaceHeader title="Projects" description="Every folder your coding agents have worked in, with its sessions and the notes Steward keeps for it." />
      <EmptyState icon="projects" title="No projects yet" command="steward backfill" commandLabel="Import earlier history now">
        <p>
          Projects appear once transcripts are captured. Steward reads the session transcripts of Claude Code, Claude Desktop&rsquo;s local
          agent sessions and OpenClaw, and groups them by the folder each session ran in.
        </p>
        <p>Nothing has been captured yet, so there is nothing to list. New sessions are picked up by the regular transcript sweep.</p>
      </EmptyState>
    </>
  );
}
