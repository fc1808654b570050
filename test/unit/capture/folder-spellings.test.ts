import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ProjectAssignment } from '../../../core/capture/assign.js';
import { isTooWideForProject, projectContaining } from '../../../core/projects/containing.js';
import { comparableFolder, normalizeCwd, projectKeyOf, projectSlugOf } from '../../../core/projects/derive.js';

const project = (cwd: string) => ({ cwd });

describe('comparableFolder: a folder of a WSL distro as Windows names it', () => {
  it('is the POSIX folder inside the distro, whichever share name, separator or verbatim form, the distro dropped', () => {
    for (const spelled of [
      '\\\\wsl.localhost\\Ubuntu\\home\\ana\\x',
      '\\\\wsl$\\Ubuntu\\home\\ana\\x\\',
      '//wsl.localhost/Ubuntu/home/ana/x',
      '//wsl$/Ubuntu/home//ana/x/',
      '\\\\WSL.LOCALHOST\\Debian\\home\\ana\\x',
      '\\\\?\\UNC\\wsl.localhost\\Ubuntu\\home\\ana\\x',
      '\\\\?\\UNC\\wsl$\\Ubuntu\\home\\ana\\x',
    ]) {
      expect(comparableFolder(spelled), spelled).toBe('/home/ana/x');
    }
  });

  it('keeps the case of the names inside the distro (Linux names are case-sensitive)', () => {
    expect(comparableFolder('\\\\wsl$\\Ubuntu\\home\\Ana\\X')).toBe('/home/Ana/X');
    expect(comparableFolder('\\\\wsl$\\Ubuntu\\home\\Ana\\X')).not.toBe(comparableFolder('/home/ana/x'));
  });

  it("a Windows drive seen through the distro's /mnt is that drive; the share's root is /", () => {
    expect(comparableFolder('\\\\wsl$\\Ubuntu\\mnt\\c\\Users\\Ana')).toBe(comparableFolder('C:\\Users\\Ana'));
    expect(comparableFolder('\\\\wsl.localhost\\Ubuntu')).toBe('/');
    expect(comparableFolder('\\\\wsl.localhost\\Ubuntu\\')).toBe('/');
  });

  it('other shares stay Windows shares', () => {
    expect(comparableFolder('\\\\server\\Ubuntu\\home\\ana\\x')).toBe(comparableFolder('\\\\SERVER\\ubuntu\\HOME\\ana\\x'));
    expect(comparableFolder('\\\\wslx\\Ubuntu\\home\\ana\\x')).not.toBe('/home/ana/x');
  });

  it('changes no key, slug or normalized folder', () => {
    const share = '\\\\wsl$\\Ubuntu\\home\\ana\\x';
    const hex = createHash('sha256').update(share).digest('hex');
    expect(normalizeCwd(share)).toBe(share);
    expect(projectKeyOf(share)).toBe(`p_${hex.slice(0, 16)}`);
    expect(projectSlugOf(share)).toBe(`x-${hex.slice(0, 8)}`);
    expect(projectKeyOf(share)).not.toBe(projectKeyOf('/home/ana/x'));
  });
});

describe('projectContaining with WSL share spellings', () => {
  it('finds a project from either spelling', () => {
    const share = project('\\\\wsl.localhost\\Ubuntu\\home\\ana\\x');
    expect(projectContaining([share], '/home/ana/x/lib', { home: '/home/ana' })).toBe(share);
    const posix = project('/home/ana/x');
    expect(projectContaining([posix], '\\\\wsl$\\Ubuntu\\home\\ana\\x\\lib', { home: '/home/ana' })).toBe(posix);
    expect(projectContaining([posix], '\\\\wsl$\\Ubuntu\\home\\ana\\xy', { home: '/home/ana' })).toBeNull();
  });

  it('the home folder or the distro root through the share is still too wide', () => {
    expect(isTooWideForProject('\\\\wsl$\\Ubuntu\\home\\ana', '/home/ana')).toBe(true);
    expect(isTooWideForProject('\\\\wsl.localhost\\Ubuntu\\', '/home/ana')).toBe(true);
    expect(isTooWideForProject('\\\\wsl.localhost\\Ubuntu\\home\\ana\\x', '/home/ana')).toBe(false);
    expect(projectContaining([project('\\\\wsl$\\Ubuntu\\home\\ana')], '/home/ana/x', { home: '/home/ana' })).toBeNull();
  });
});

/** The projects room as capture sees it: rows in insertion order (the oldest first), keyed as the store keys them. */
function room(initial: string[]) {
  const rows = initial.map(normalizeCwd);
  let listed = 0;
  const projects = {
    touch: (cwd: string) => {
      const folder = normalizeCwd(cwd);
      if (!rows.includes(folder)) rows.push(folder);
      return projectKeyOf(cwd);
    },
    keyOf: (cwd: string) => projectKeyOf(cwd),
    vacated: () => false,
    folders: () => (listed++, [...rows]),
    count: () => rows.length,
  };
  return { assignment: new ProjectAssignment(projects), rows, listed: () => listed };
}

describe('ProjectAssignment: one project for the spellings of one folder', () => {
  it("gives a cwd spelled differently from a project's folder that project, the first one's key kept", () => {
    const { assignment } = room(['C:\\Users\\Ana\\x', '/home/ana/y']);
    expect(assignment.folderOf('c:\\users\\ana\\x')).toBe('c:\\Users\\Ana\\x');
    expect(assignment.keys.keyOf('c:\\users\\ana\\x')).toBe(projectKeyOf('C:\\Users\\Ana\\x'));
    expect(assignment.keys.keyOf('\\\\wsl$\\Ubuntu\\home\\ana\\y')).toBe(projectKeyOf('/home/ana/y'));
    // The same spelling, or a folder no project is, stays as it came.
    expect(assignment.folderOf('C:\\Users\\Ana\\x\\')).toBe('C:\\Users\\Ana\\x\\');
    expect(assignment.folderOf('/home/ana/z')).toBe('/home/ana/z');
    expect(assignment.folderOf('/home/Ana/y')).toBe('/home/Ana/y');
  });

  it('of several projects of one folder, the oldest is the folder', () => {
    const { assignment } = room(['/home/ana/x', '\\\\wsl$\\Ubuntu\\home\\ana\\x', '\\\\wsl.localhost\\Ubuntu\\home\\ana\\x']);
    expect(assignment.folderOf('\\\\wsl.localhost\\Ubuntu\\home\\ana\\x')).toBe('/home/ana/x');
    expect(assignment.folderOf('\\\\wsl$\\Ubuntu\\home\\ana\\x')).toBe('/home/ana/x');
    expect(assignment.folderOf('/home/ana/x')).toBe('/home/ana/x');
  });

  it('sees a project made since, and lists the folders again only when their number changed', () => {
    const { assignment, listed } = room(['/home/ana/y']);
    expect(assignment.folderOf('\\\\wsl$\\Ubuntu\\home\\ana\\x')).toBe('\\\\wsl$\\Ubuntu\\home\\ana\\x');
    assignment.keys.touch('\\\\wsl$\\Ubuntu\\home\\ana\\x');
    expect(assignment.folderOf('/home/ana/x')).toBe('\\\\wsl$\\Ubuntu\\home\\ana\\x');
    const before = listed();
    for (let i = 0; i < 5; i++) assignment.folderOf('/home/ana/x');
    expect(listed()).toBe(before);
  });

  it("a later spelling's own key is a former key of its sessions (its forget still withholds them)", () => {
    const { assignment } = room(['C:\\Users\\Ana\\x']);
    expect(assignment.formerKeysOf('c:\\users\\ana\\x')).toEqual([projectKeyOf('c:\\users\\ana\\x')]);
    expect(assignment.formerKeysOf('C:\\Users\\Ana\\x')).toEqual([]);
    expect(assignment.formerKeysOf('/elsewhere')).toEqual([]);
  });

  it('names the later spellings once, as projects whose sessions move to the oldest', () => {
    const { assignment } = room(['C:\\Users\\Ana\\x', 'c:\\users\\ana\\x', '/home/ana/y']);
    expect([...assignment.newlyKnown()]).toEqual(['c:\\users\\ana\\x']);
    expect([...assignment.newlyKnown()]).toEqual([]);
  });
});

describe('a Gemini CLI hash folder of a later spelling', () => {
  const unknownOf = (spelled: string) => `Gemini CLI project ${createHash('sha256').update(spelled).digest('hex').slice(0, 8)} (folder unknown)`;

  it('is the earliest project, while the later spelling still has a row of its own and after it moved', () => {
    const { assignment, rows } = room(['C:\\Work\\App', 'c:\\work\\app']);
    expect(assignment.folderOf(unknownOf('c:\\work\\app'))).toBe('c:\\Work\\App');
    rows.splice(1, 1);
    expect(assignment.folderOf(unknownOf('c:\\work\\app'))).toBe('c:\\Work\\App');
  });

  it('is the earliest project when only another agent’s session met that spelling (no row holds it)', () => {
    const { assignment } = room(['C:\\Work\\App']);
    expect(assignment.folderOf(unknownOf('c:\\work\\app'))).toBe(unknownOf('c:\\work\\app'));
    expect(assignment.folderOf('c:\\work\\app')).toBe('c:\\Work\\App');
    expect(assignment.folderOf(unknownOf('c:\\work\\app'))).toBe('c:\\Work\\App');
  });
});
