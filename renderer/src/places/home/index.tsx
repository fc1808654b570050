import type { ReactElement } from 'react';
import { PlaceHeader } from '../../components/index.js';
import { useCall } from '../../hooks.js';
import { FirstRun } from './FirstRun.js';
import { NeedsYou } from './NeedsYou.js';
import { RecentConversations } from './Recent.js';
import { Stored } from './Stored.js';
import { Watched } from './Watched.js';
import './home.css';

/**
 * Home, where the panel opens (and the tray's Open lands): what needs the person, the latest
 * conversations to go back to, the agents watched with their folders, what Steward holds and when it
 * looks again. On a new install it starts with the first-run view, until the person has been through it.
 */
export function HomePlace(): ReactElement {
  const firstRun = useCall('App.FirstRun', {});
  return (
    <>
      <PlaceHeader title="Home" description="What Steward watches, what it keeps, and what needs you." />
      {firstRun.data?.done === false && <FirstRun onDone={firstRun.reload} />}
      <NeedsYou />
      {/* Getting started says what was imported; after it, Home leads back to recent work. */}
      {firstRun.data?.done === true && <RecentConversations />}
      {/* The first-run view shows the watched folders itself. */}
      {firstRun.data?.done === true && <Watched />}
      <Stored />
    </>
  );
}
