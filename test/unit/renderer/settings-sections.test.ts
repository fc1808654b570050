import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeFromHash } from '../../../renderer/src/navigation.js';
import { AboutBox } from '../../../renderer/src/places/settings/AboutBox.js';
import { AgentContext } from '../../../renderer/src/places/settings/AgentContext.js';
import { CacheRetention } from '../../../renderer/src/places/settings/CacheRetention.js';
import { CaptureSettings } from '../../../renderer/src/places/settings/CaptureSettings.js';
import { ComputerSettings } from '../../../renderer/src/places/settings/ComputerSettings.js';
import { CuratorSettings } from '../../../renderer/src/places/settings/CuratorSettings.js';
import { FilesPanel } from '../../../renderer/src/places/settings/FilesPanel.js';
import { ForgottenList } from '../../../renderer/src/places/settings/ForgottenList.js';
import type { ConfigView } from '../../../renderer/src/places/settings/saving.js';
import { SECTION_LIST, SECTIONS } from '../../../renderer/src/places/settings/sections.js';
import { SettingsSections } from '../../../renderer/src/places/settings/SettingsSections.js';
import { TranscriptFolders } from '../../../renderer/src/places/settings/TranscriptFolders.js';

const CONFIG = {
  saved: { retentionDays: 365, sweepIntervalMs: 300_000, captureExclude: [], providers: {} },
  environment: [],
  paths: { home: '/h', config: '/h/config.json', notes: '/h/notes', logs: '/h/logs' },
} as unknown as ConfigView;
const noop = () => undefined;

/** Each section's panel, as Settings draws it. */
const PANELS: Record<keyof typeof SECTIONS, () => ReactElement> = {
  files: () => createElement(FilesPanel, { config: CONFIG }),
  agents: () => createElement(TranscriptFolders, { config: CONFIG, onSaved: noop }),
  importing: () => createElement(CaptureSettings, { config: CONFIG, onSaved: noop }),
  forgotten: () => createElement(ForgottenList),
  projectNotes: () => createElement(CuratorSettings),
  agentNotes: () => createElement(AgentContext),
  computer: () => createElement(ComputerSettings, { config: CONFIG, onSaved: noop }),
  cacheRetention: () => createElement(CacheRetention),
  about: () => createElement(AboutBox),
};

const links = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => ({ href: m[1]!.replace(/&amp;/g, '&'), words: m[2]! }));

afterEach(() => vi.unstubAllGlobals());

describe('Settings sections', () => {
  it('lists every section at the top, each linked at its own Settings address, in the order of the page', () => {
    const html = renderToStaticMarkup(createElement(SettingsSections, { configRead: true }));
    expect(html).toMatch(/<nav [^>]*aria-label="Settings sections"/);
    expect(links(html)).toEqual(SECTION_LIST.map((s) => ({ href: `#/settings?section=${s.id}`, words: s.title })));
    // The address is the panel's own convention (placeHref's `section`): it opens Settings with that section named.
    for (const { href } of links(html)) expect(routeFromHash(href)).toMatchObject({ view: 'settings', params: { section: expect.any(String) } });
  });

  it('lists only the sections drawn while config.json is not read', () => {
    const html = renderToStaticMarkup(createElement(SettingsSections, { configRead: false }));
    expect(links(html).map((l) => l.words)).toEqual(['Cache retention', 'About this Steward']);
  });

  it('gives each panel its section id and a heading the focus can land on, titled as its link', () => {
    // The panel as the browser has it (no desktop bridge).
    vi.stubGlobal('window', {});
    for (const [key, panel] of Object.entries(PANELS)) {
      const section = SECTIONS[key as keyof typeof SECTIONS];
      const html = renderToStaticMarkup(panel());
      expect(html, key).toMatch(new RegExp(`^<section class="panel" aria-label="${section.title}" id="${section.id}">`));
      expect(html, key).toContain(`<h2 class="panel__title" tabindex="-1">${section.title}</h2>`);
    }
  });
});
