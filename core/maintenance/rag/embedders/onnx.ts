import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StewardError } from '../../../api/index.js';
import { checkVectors, type Embedder } from './types.js';

/**
 * The optional dependency behind the `local` profile. It installs only with `--ignore-scripts`
 * (its onnxruntime-node postinstall reaches the network), so Steward does not depend on it; a
 * person who wants in-process ONNX models installs it beside Steward.
 */
export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';
export const TRANSFORMERS_INSTALL = `npm install --ignore-scripts ${TRANSFORMERS_PACKAGE}@4`;

/** The little of transformers.js this profile uses, typed here because the package is optional. */
interface Transformers {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(
    task: 'feature-extraction',
    model: string,
    options: { local_files_only: boolean; dtype?: string },
  ): Promise<(texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<{ tolist(): number[][] }>>;
}

export type ModuleLoader = (specifier: string) => Promise<unknown>;

// A variable specifier keeps bundlers and the type checker from requiring the optional package.
const importOptional: ModuleLoader = (specifier) => import(specifier);

function isMissingModule(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

export async function loadTransformers(load: ModuleLoader = importOptional): Promise<Transformers> {
  try {
    return (await load(TRANSFORMERS_PACKAGE)) as Transformers;
  } catch (error) {
    if (!isMissingModule(error)) throw new StewardError('embedder_failed', `${TRANSFORMERS_PACKAGE} is installed but could not be loaded.`);
    throw new StewardError(
      'optional_dependency_missing',
      `The local ONNX embedding profile needs the optional package ${TRANSFORMERS_PACKAGE}, which is not installed. Install it beside Steward with \`${TRANSFORMERS_INSTALL}\`, ` +
        'or choose the built-in `hash` profile.',
      { package: TRANSFORMERS_PACKAGE },
    );
  }
}

/** A model folder's revision: its config.json, hashed. A missing folder is a clear error, never a download. */
export function localModelRevision(modelsDir: string, model: string): string {
  try {
    return `cfg-${createHash('sha256').update(readFileSync(join(modelsDir, model, 'config.json'))).digest('hex').slice(0, 16)}`;
  } catch {
    throw new StewardError(
      'model_missing',
      `The local embedding model ${model} is not in Steward's models folder (models/ in STEWARD_HOME). Copy the model's folder (config.json, tokenizer and onnx/) there; Steward never downloads a model.`,
      { model },
    );
  }
}

export async function localEmbedder(modelsDir: string, model: string, load?: ModuleLoader): Promise<Embedder> {
  const transformers = await loadTransformers(load);
  localModelRevision(modelsDir, model);
  transformers.env.allowRemoteModels = false;
  transformers.env.allowLocalModels = true;
  transformers.env.localModelPath = modelsDir;
  const extract = await transformers.pipeline('feature-extraction', model, { local_files_only: true });
  return {
    batchSize: 16,
    embed: async (texts) => {
      const output = await extract([...texts], { pooling: 'mean', normalize: true });
      return checkVectors(output.tolist().map((v) => Float32Array.from(v)), texts.length, null);
    },
  };
}
