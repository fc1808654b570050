import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectAbout } from './types.js';

const READ_BYTES = 64 * 1024;

/** The head of a file in the project's folder, read only and bounded; null when it cannot be read. */
function readHead(path: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(READ_BYTES);
    const n = readSync(fd, buffer, 0, READ_BYTES, 0);
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function findFile(cwd: string, pattern: RegExp): string | null {
  try {
    const name = readdirSync(cwd)
      .filter((n) => pattern.test(n))
      .sort()[0];
    return name ? join(cwd, name) : null;
  } catch {
    return null;
  }
}

/** Markdown to plain prose: links keep their text, emphasis and inline code marks go. */
function plain(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*_`]{1,3}([^*_`]+)[*_`]{1,3}/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The README's first paragraph of prose: past front matter, headings, badges, HTML and lists of links. */
export function readmeParagraph(text: string): string | null {
  const body = text.replace(/^---\n[\s\S]*?\n---\n/, '').replace(/<!--[\s\S]*?-->/g, '');
  const paragraphs = body.split(/\n\s*\n/);
  for (const paragraph of paragraphs) {
    const lines = paragraph.split('\n').filter((l) => !/^\s*(#|=+\s*$|-+\s*$|\[!\[|!\[|<|\||```|>\s*\[!)/.test(l));
    const text = plain(lines.join(' '));
    if (text.split(' ').length >= 4 && /[a-z]/.test(text)) return text.length > 400 ? `${text.slice(0, 399).trimEnd()}…` : text;
  }
  return null;
}

function manifestDescription(cwd: string): string | null {
  const pkg = readHead(join(cwd, 'package.json'));
  if (pkg !== null) {
    try {
      const description: unknown = (JSON.parse(pkg) as { description?: unknown }).description;
      if (typeof description === 'string' && description.trim() !== '') return description.trim().slice(0, 300);
    } catch {
      // A package.json cut at the read bound or broken says nothing; the next manifest may.
    }
  }
  for (const file of ['pyproject.toml', 'Cargo.toml']) {
    const text = readHead(join(cwd, file));
    const match = text ? /^\s*description\s*=\s*"([^"\n]+)"/m.exec(text) : null;
    if (match?.[1]) return match[1].trim().slice(0, 300);
  }
  return null;
}

/** What the project folder says about itself. A folder that is gone (or never was here) says nothing. */
export function readProjectAbout(cwd: string): ProjectAbout {
  const readme = findFile(cwd, /^readme(?:\.(?:md|markdown|txt|rst))?$/i);
  const text = readme ? readHead(readme) : null;
  return { readme: text ? readmeParagraph(text) : null, description: manifestDescription(cwd) };
}
