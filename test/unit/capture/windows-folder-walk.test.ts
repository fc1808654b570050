import { describe, expect, it } from 'vitest';
import { projectForFolder, projectKeyOf } from '../../../core/projects/folder/index.js';

describe('projectForFolder walks up a Windows folder on any system', () => {
  const appKey = projectKeyOf('C:\\Users\\Ana\\App');
  const isApp = (folder: string) => projectKeyOf(folder) === appKey;

  it('finds the project keyed from C:\\Users\\Ana\\App from a folder below it', () => {
    expect(projectForFolder('C:\\Users\\Ana\\App\\lib\\x', isApp, { home: '/home/ana' })).toBe('c:\\Users\\Ana\\App');
    expect(projectForFolder('\\\\server\\share\\App\\lib', (f) => f === '\\\\server\\share\\App', { home: '/home/ana' })).toBe('\\\\server\\share\\App');
  });

  it('stops at the drive root, which is too wide to be a project', () => {
    const seen: string[] = [];
    const none = projectForFolder('C:\\Users\\Ana\\App\\lib', (f) => (seen.push(f), f === 'c:\\'), { home: 'C:\\Users\\Ana' });
    expect(none).toBeNull();
    // The home folder and the drive root are never asked about.
    expect(seen).toEqual(['c:\\Users\\Ana\\App\\lib', 'c:\\Users\\Ana\\App', 'c:\\Users']);
  });
});
