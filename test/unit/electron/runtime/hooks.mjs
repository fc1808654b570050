const SHIM = new URL('./electron-shim.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: SHIM, shortCircuit: true };
  return next(specifier, context);
}
