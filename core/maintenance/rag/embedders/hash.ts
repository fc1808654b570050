/**
 * The built-in `hash` embedder: deterministic, no model, no network (`local_process`). Word
 * unigrams, word bigrams and character n-grams of each word are feature-hashed; every feature adds
 * a pseudo-random ±1 signature (seeded by its hash) to a dense vector, so similar texts share
 * directions and the sign bits of the result behave like a SimHash (which keeps binary
 * quantization meaningful). It finds lexical and morphological neighbours, not synonyms.
 */
export const HASH_MODEL = 'hash-ngram';
/** The algorithm's version: any change to features, weights or hashing must change it (and so the namespace). */
export const HASH_REVISION = 'fh1';
export const HASH_MAX_DIMENSIONS = 384;
export const HASH_DEFAULT_DIMENSIONS = 384;

const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down ' +
    'during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my ' +
    'myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them ' +
    'themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would ' +
    'you your yours yourself yourselves also get got via per etc'
  ).split(' '),
);

const WEIGHT = { word: 1, bigram: 0.5, chars: 0.5 } as const;
const CHAR_N = 4;

/** Lowercased words without diacritics (`Café` → `cafe`), so accents never split a match. */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

export function contentWords(text: string): string[] {
  return words(text).filter((w) => (w.length > 1 || /\d/.test(w)) && !STOPWORDS.has(w));
}

/** Sublinear term frequency: the tenth "sync" in a chunk adds much less than the first. */
const tf = (count: number): number => 1 + Math.log(count);

/** FNV-1a over UTF-16 code units, then a murmur3 finalizer for avalanche. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0 || 0x9e3779b9;
}

/** Adds `weight` times the feature's ±1 signature (xorshift32 bits seeded by its hash). */
function addSignature(vector: Float32Array, feature: string, weight: number): void {
  let x = hash32(feature) | 0;
  const twice = 2 * weight;
  for (let base = 0; base < vector.length; base += 32) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const end = Math.min(32, vector.length - base);
    for (let b = 0; b < end; b += 1) vector[base + b]! += ((x >>> b) & 1) * twice - weight;
  }
}

/**
 * A word's own direction: its unigram plus its character n-grams, which share half a word's weight
 * so long words do not drown short ones. Words repeat across chunks (Zipf), so each is computed once
 * per dimension count and kept in a bounded cache.
 */
const wordCache = new Map<string, Float32Array>();
const WORD_CACHE_LIMIT = 8_192;

function wordVector(token: string, dimensions: number): Float32Array {
  const key = `${dimensions}\u0001${token}`;
  const cached = wordCache.get(key);
  if (cached) return cached;
  const vector = new Float32Array(dimensions);
  addSignature(vector, `w\u0001${token}`, WEIGHT.word);
  if (token.length >= CHAR_N) {
    const marked = `^${token}$`;
    const grams = marked.length - CHAR_N + 1;
    for (let j = 0; j < grams; j += 1) addSignature(vector, `c\u0001${marked.slice(j, j + CHAR_N)}`, WEIGHT.chars / grams);
  }
  if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear();
  wordCache.set(key, vector);
  return vector;
}

function counts(items: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(item, (out.get(item) ?? 0) + 1);
  return out;
}

/** One text's vector, L2-normalized; a text without content words is the zero vector. */
export function hashEmbed(text: string, dimensions: number): Float32Array {
  const tokens = contentWords(text);
  const vector = new Float32Array(dimensions);
  for (const [token, count] of counts(tokens)) {
    const word = wordVector(token, dimensions);
    const weight = tf(count);
    for (let i = 0; i < dimensions; i += 1) vector[i]! += word[i]! * weight;
  }
  const bigrams = tokens.slice(1).map((token, i) => `b\u0001${tokens[i]}\u0001${token}`);
  for (const [bigram, count] of counts(bigrams)) addSignature(vector, bigram, WEIGHT.bigram * tf(count));
  return normalize(vector);
}

export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i += 1) vector[i]! /= norm;
  return vector;
}
