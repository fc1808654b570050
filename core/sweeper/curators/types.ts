import type { CuratorKind } from '../../api/index.js';
import type { Digest, RenderedPrompt } from '../types.js';
import type { MarkerSections } from '../markers.js';

export interface CuratorRequest {
  digest: Digest;
  prompt: RenderedPrompt;
  /** Local date of this sweep, YYYY-MM-DD. */
  today: string;
  signal?: AbortSignal;
}

/** A changelog bullet and the local date of the activity it describes. */
export interface DatedBullet {
  date: string;
  bullet: string;
}

export interface CuratorReply {
  sections: MarkerSections;
  /** One bullet per activity day, when the curator knows the days (the offline one does). */
  days?: DatedBullet[];
  tokensIn: number;
  tokensOut: number;
  /** Model requests made, repairs and retries included (0 for the offline curator). */
  calls: number;
}

export interface Curator {
  readonly kind: CuratorKind;
  readonly model: string | null;
  curate(request: CuratorRequest): Promise<CuratorReply>;
}

export type CuratorFailure = 'format' | 'truncated' | 'refusal' | 'http' | 'timeout' | 'connection' | 'spend_limit' | 'auth' | 'cancelled';

/** A failed curation. `pause` failures stop the sweeper for that curator until someone acts. */
export class CuratorError extends Error {
  readonly failure: CuratorFailure;
  readonly status: number | null;
  calls: number;

  constructor(failure: CuratorFailure, message: string, status: number | null = null, calls = 0) {
    super(message);
    this.name = 'CuratorError';
    this.failure = failure;
    this.status = status;
    this.calls = calls;
  }

  get pause(): boolean {
    return this.failure === 'spend_limit' || this.failure === 'auth';
  }
}

/** The keys a remote curator may use, as the secrets room read them. */
export interface ApiKeys {
  anthropic?: string | undefined;
  openai?: string | undefined;
  /** Whether Settings can store a key here (the desktop app's keychain); headless mode reads the environment only. */
  storable?: boolean | undefined;
}
