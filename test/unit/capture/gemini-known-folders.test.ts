import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KnownFolders, unknownFolderPrefix } from '../../../core/transcripts/index.js';
import { unknownFolderProject } from '../../../core/transcripts/providers/gemini/index.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function known(folders: string[]) {
  const list = { folders: () => folders, count: () => folders.length, listed: 0 };
  const counted = { folders: () => (list.listed++, list.folders()), count: () => list.count() };
  return { known: new KnownFolders(counted), list };
}

describe('KnownFolders: a Gemini hash folder matched to the folders Steward knows', () => {
  it('finds the folder whose sha256 the hash folder is, and nothing for a hash no known folder has', () => {
    const { known: k } = known(['/home/dana/src/site', '/home/dana/src/orchard', 'Claude Desktop']);
    expect(k.folderOf(unknownFolderProject(sha('/home/dana/src/site')))).toBe('/home/dana/src/site');
    expect(k.folderOf(unknownFolderProject(sha('/home/dana/src/elsewhere')))).toBeUndefined();
    // Any other project is no hash folder's.
    expect(k.folderOf('/home/dana/src/site')).toBeUndefined();
  });

  it('matches a Windows folder Gemini hashed with its drive letter in upper case (Steward keeps it in lower case)', () => {
    const { known: k } = known(['c:\\Users\\dana\\site']);
    expect(k.folderOf(unknownFolderProject(sha('C:\\Users\\dana\\site')))).toBe('c:\\Users\\dana\\site');
  });

  it('lists the folders again only when their number changed', () => {
    const { known: k, list } = known(['/home/dana/src/site']);
    const site = unknownFolderProject(sha('/home/dana/src/site'));
    k.folderOf(site);
    k.folderOf(site);
    expect(list.listed).toBe(1);
  });

  it('names a hash folder by its first eight digits, and a slug folder by its name', () => {
    expect(unknownFolderProject('a'.repeat(64))).toBe('Gemini CLI project aaaaaaaa (folder unknown)');
    expect(unknownFolderPrefix(unknownFolderProject('a'.repeat(64)))).toBe('aaaaaaaa');
    expect(unknownFolderProject('uploader')).toBe('Gemini CLI project uploader (folder unknown)');
    expect(unknownFolderPrefix('Gemini CLI')).toBeUndefined();
  });
});
