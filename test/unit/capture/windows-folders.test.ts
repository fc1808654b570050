import { describe, expect, it } from 'vitest';
import { isTooWideForProject, projectContaining } from '../../../core/projects/containing.js';
import { normalizeCwd, projectKeyOf, projectNameOf, comparableFolder } from '../../../core/projects/derive.js';

const home = { home: '/home/ana' };
const project = (cwd: string) => ({ cwd });

describe('Windows folders read on any system', () => {
  it('a trailing backslash (or slash, or several) names the same folder, keyed the same', () => {
    const key = projectKeyOf('C:\\Users\\Ana\\src\\App');
    for (const spelled of ['C:\\Users\\Ana\\src\\App\\', 'C:\\Users\\Ana\\src\\App\\\\', 'C:/Users/Ana/src/App/', '\\\\?\\C:\\Users\\Ana\\src\\App\\', '/mnt/c/Users/Ana/src/App/']) {
      expect(projectKeyOf(spelled)).toBe(key);
    }
    expect(normalizeCwd('\\\\server\\share\\App\\')).toBe('\\\\server\\share\\App');
  });

  it('keeps the case a Windows folder was written in for its name and folder', () => {
    expect(normalizeCwd('C:\\Users\\Ana\\src\\App\\')).toBe('c:\\Users\\Ana\\src\\App');
    expect(projectNameOf('c:\\users\\ana\\src\\App')).toBe('App');
  });

  it('compares Windows folders without regard to case, as Windows does; POSIX folders with it', () => {
    expect(comparableFolder('C:\\Users\\Ana\\src\\App')).toBe(comparableFolder('c:\\users\\ana\\src\\app\\'));
    expect(comparableFolder('/mnt/c/USERS/ana/src/App')).toBe(comparableFolder('C:\\Users\\Ana\\src\\App'));
    expect(comparableFolder('\\\\Server\\Share\\App')).toBe(comparableFolder('\\\\server\\share\\app'));
    expect(comparableFolder('/Users/ana/App')).not.toBe(comparableFolder('/users/ana/app'));
    // Each character is folded alone, as NTFS's upcase table does: a name never changes length.
    expect(comparableFolder('c:\\Straße')).toHaveLength('c:\\Straße'.length);
  });

  it('finds the project a Windows folder is in whatever its case, separator or WSL spelling', () => {
    const app = project('c:\\Users\\Ana\\src\\App');
    const projects = [project('c:\\Users\\Ana\\src\\Apple'), app, project('/users/ana/src/app')];
    expect(projectContaining(projects, 'C:\\users\\ana\\SRC\\app\\lib', home)).toBe(app);
    expect(projectContaining(projects, 'c:\\users\\ana\\src\\app', home)).toBe(app);
    expect(projectContaining(projects, '/mnt/c/Users/Ana/src/App/lib/', home)).toBe(app);
    expect(projectContaining(projects, 'c:\\Users\\Ana\\src\\Appendix', home)).toBeNull();
    // POSIX paths keep their case: /Users/ana/src/App/lib is not in /users/ana/src/app.
    expect(projectContaining(projects, '/Users/ana/src/App/lib', home)).toBeNull();
    expect(projectContaining(projects, '/users/ana/src/app/lib', home)).toEqual(project('/users/ana/src/app'));
  });

  it('a drive root or the home folder, in any case, is too wide to be a project', () => {
    expect(isTooWideForProject('C:\\', '/home/ana')).toBe(true);
    expect(isTooWideForProject('/mnt/c/', '/home/ana')).toBe(true);
    expect(isTooWideForProject('c:\\users\\ana\\', 'C:\\Users\\Ana')).toBe(true);
    expect(isTooWideForProject('C:\\Users\\Ana\\src', 'C:\\Users\\Ana')).toBe(false);
    const projects = [project('C:\\'), project('c:\\USERS\\ANA')];
    expect(projectContaining(projects, 'c:\\Users\\Ana\\src', { home: 'C:\\Users\\Ana' })).toBeNull();
  });
});
