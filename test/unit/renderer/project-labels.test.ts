import { describe, expect, it } from 'vitest';
import { projectChoiceLabels } from '../../../core/api/names.js';

const project = (projectKey: string, cwd: string) => ({ projectKey, name: cwd.split(/[\\/]/).filter(Boolean).pop() ?? cwd, cwd });

describe('a list of projects to choose from', () => {
  it('tells two projects of the same name apart by their folders, and leaves a name that is not repeated alone', () => {
    const labels = projectChoiceLabels([
      project('p_0000000000000001', '/home/ann/clients/acme/app'),
      project('p_0000000000000002', '/home/ann/old/app'),
      project('p_0000000000000003', '/home/ann/orchard'),
    ]);
    expect(labels.get('p_0000000000000001')).toBe('app (\u2026/acme/app)');
    expect(labels.get('p_0000000000000002')).toBe('app (\u2026/old/app)');
    expect(labels.get('p_0000000000000003')).toBe('orchard');
  });

  it('goes up as many folders as it takes, and shows a short path whole', () => {
    const labels = projectChoiceLabels([
      project('p_0000000000000001', '/srv/a/work/app'),
      project('p_0000000000000002', '/srv/b/work/app'),
      project('p_0000000000000003', '/app'),
    ]);
    expect([...labels.values()]).toEqual(['app (\u2026/a/work/app)', 'app (\u2026/b/work/app)', 'app (/app)']);
  });

  it('speaks Windows paths in their own separator', () => {
    const labels = projectChoiceLabels([project('p_0000000000000001', 'c:\\Users\\ann\\app'), project('p_0000000000000002', 'd:\\app')]);
    expect([...labels.values()]).toEqual(['app (\u2026\\ann\\app)', 'app (d:\\app)']);
  });

  it('adds the project\'s digits when two folders read the same', () => {
    const labels = projectChoiceLabels([
      { projectKey: 'p_1111111111111111', name: 'app', cwd: '/work/app' },
      { projectKey: 'p_2222222222222222', name: 'app', cwd: '/work/app' },
    ]);
    expect([...labels.values()]).toEqual(['app (/work/app, 11111111)', 'app (/work/app, 22222222)']);
  });
});
