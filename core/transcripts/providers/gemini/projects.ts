import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { withoutBom } from '../../lines.js';
import { asObject } from '../../projection.js';
import { readSmallFile, refused } from '../../small-file.js';

const MAX_SMALL_FILE = 4 * 1024 * 1024;

async function readSmall(path: string): Promise<{ text: string; size: number; mtimeMs: number } | undefined> {
  try {
    const read = await readSmallFile(path, MAX_SMALL_FILE);
    return refused(read) ? undefined : { text: withoutBom(read.bytes.toString('utf8')), size: read.size, mtimeMs: read.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * Where a Gemini CLI project folder (`tmp/<id>/`) came from. `<id>` was the sha256 of the project
 * path; newer versions use a slug of its base name and write the path into `tmp/<slug>/.project_root`
 * and `~/.gemini/projects.json` (`{projects: {path: slug}}`). A hash folder is matched by hashing
 * each registered path. The registry is read once per change of the file, not once per session.
 */
export class ProjectPaths {
  #registry: { path: string; size: number; mtimeMs: number; bySlug: Map<string, string>; byHash: Map<string, string> } | undefined;

  async cwdOf(geminiRoot: string, id: string): Promise<string | undefined> {
    const marker = await readSmall(join(geminiRoot, 'tmp', id, '.project_root'));
    const fromMarker = marker?.text.trim();
    if (fromMarker) return fromMarker;
    const registry = await this.#load(join(geminiRoot, 'projects.json'));
    return registry?.bySlug.get(id) ?? registry?.byHash.get(id);
  }

  async #load(path: string) {
    const cached = this.#registry;
    try {
      const info = await stat(path);
      if (cached && cached.path === path && cached.size === info.size && cached.mtimeMs === info.mtimeMs) return cached;
    } catch {
      return undefined;
    }
    const file = await readSmall(path);
    if (!file) return undefined;
    const bySlug = new Map<string, string>();
    const byHash = new Map<string, string>();
    let projects: Record<string, unknown> = {};
    try {
      projects = asObject(asObject(JSON.parse(file.text))?.projects) ?? {};
    } catch {
      // A registry Gemini is rewriting (or a damaged one) names no project this pass.
    }
    for (const [projectPath, slug] of Object.entries(projects)) {
      if (typeof slug === 'string') bySlug.set(slug, projectPath);
      byHash.set(createHash('sha256').update(projectPath).digest('hex'), projectPath);
    }
    this.#registry = { path, size: file.size, mtimeMs: file.mtimeMs, bySlug, byHash };
    return this.#registry;
  }
}
