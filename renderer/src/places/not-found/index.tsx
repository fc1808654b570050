import { useEffect, type ReactElement } from 'react';
import { EmptyState, ErrorBanner, PathText, PlaceHeader } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { projectsNamed } from '../../../../core/api/names.js';
import { placeHref, projectHref } from '../../navigation.js';
import { forgottenProjectRecord } from '../projects/opened.js';
import { usePanel } from '../../store.js';
import './not-found.css';

/**
 * Rendered by a view that says a conversation or project is not in Steward: while it shows, the
 * window title says "Not found", not the name of a place the person did not reach.
 */
export function NotFoundTitle(): null {
  useEffect(() => {
    usePanel.setState({ notFound: true });
    return () => usePanel.setState({ notFound: false });
  }, []);
  return null;
}

/** The way on from an address that leads nowhere: the two places that list what Steward holds. */
function WayOn(): ReactElement {
  return (
    <p className="not-found__way">
      <a href={placeHref('home')}>Go to Home</a>
      <a href={placeHref('projects')}>See all projects</a>
    </p>
  );
}

/**
 * An address that names no place, project or conversation (mistyped, copied in part, or from an older
 * Steward): said in words on a view of its own, the address kept so it can be corrected, never shown
 * as whatever place the panel was on before.
 */
export function NotFound({ address }: { address: string }): ReactElement {
  return (
    <div className="not-found" data-testid="not-found">
      <PlaceHeader title="Nothing at this address" description="Steward has no place, project or conversation at this address." />
      <EmptyState icon="search" title="This address names nothing in Steward">
        <p>
          The panel&rsquo;s address ends in <code className="not-found__address">{address}</code>. It may be mistyped or copied only in part.
        </p>
        <WayOn />
      </EmptyState>
    </div>
  );
}

/**
 * `#/projects/<name>`: a project named as the CLI lets a person name it (its name, in any case, or its
 * notes folder's slug). One match replaces the address with the project's own (Back skips the name);
 * several are listed to choose from; none is said in words, with the way on.
 */
export function ProjectByName({ name }: { name: string }): ReactElement {
  const list = useCall('Projects.List', {});
  const records = useCall('Forget.List', {});
  const projects = list.data?.projects;
  const keys = projects ? projectsNamed(name, projects) : undefined;
  // A project forgotten under this name: its own address says so, with Unforget (ProjectView).
  const forgotten = keys?.length === 0 && records.data ? forgottenProjectRecord(records.data.tombstones, name)?.id : undefined;
  const only = keys?.length === 1 ? keys[0] : forgotten;
  useEffect(() => {
    if (only !== undefined) window.location.replace(projectHref(only));
  }, [only]);
  const recordsRead = records.data !== undefined || records.error !== undefined;

  const quoted = `\u201c${name}\u201d`;
  if (list.error) {
    return (
      <>
        <PlaceHeader title="Project" description={`Looking for the project called ${quoted}.`} />
        <ErrorBanner title="The projects could not be loaded." error={list.error} onRetry={list.reload} />
      </>
    );
  }
  if (keys === undefined || only !== undefined || (keys.length === 0 && !recordsRead)) return <PlaceHeader title="Project" description={`Looking for the project called ${quoted}…`} />;
  if (keys.length === 0) {
    return (
      <div className="not-found" data-testid="not-found">
        <NotFoundTitle />
        <PlaceHeader title="Project not found" description={`No project in Steward is called ${quoted}.`} />
        <EmptyState icon="projects" title={`No project is called ${quoted}`}>
          <p>It may have been forgotten, or its conversations removed by the cache retention window; or the name is mistyped. All projects lists every project Steward holds, with its name.</p>
          <WayOn />
        </EmptyState>
      </div>
    );
  }
  const named = projects!.filter((p) => keys.includes(p.projectKey));
  return (
    <div className="not-found">
      <PlaceHeader title="Which project?" description={`${named.length} projects are called ${quoted}. Choose one by its folder.`} />
      <ul className="not-found__choices">
        {named.map((p) => (
          <li key={p.projectKey}>
            <a href={projectHref(p.projectKey)}>{p.name}</a> <PathText path={p.cwd} />
          </li>
        ))}
      </ul>
    </div>
  );
}
