import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 't@example.com' };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A real git repository made in the test: write, rename and delete files, commit, publish to a bare copy. */
export class TestRepo {
  readonly dir: string;
  bare: string | null = null;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q', '-b', 'main');
  }

  write(path: string, text: string): this {
    mkdirSync(dirname(join(this.dir, path)), { recursive: true });
    writeFileSync(join(this.dir, path), text);
    return this;
  }

  rename(from: string, to: string): this {
    git(this.dir, 'mv', from, to);
    return this;
  }

  remove(path: string): this {
    rmSync(join(this.dir, path));
    return this;
  }

  commit(message = 'change'): string {
    git(this.dir, 'add', '-A');
    git(this.dir, 'commit', '-q', '--allow-empty', '-m', message);
    return git(this.dir, 'rev-parse', 'HEAD').trim();
  }

  /**
   * A bare copy served over git's dumb HTTP protocol (the fake forge serves its files): every push
   * refreshes the info files dumb clients read.
   */
  publish(bare: string): string {
    if (!this.bare) {
      git(dirname(bare), 'clone', '-q', '--bare', this.dir, bare);
      copyFileSync(join(bare, 'hooks', 'post-update.sample'), join(bare, 'hooks', 'post-update'));
      this.bare = bare;
    } else git(this.dir, 'push', '-q', '--force', bare, 'HEAD:main');
    git(bare, 'update-server-info');
    return bare;
  }
}
