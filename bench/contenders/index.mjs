// The contenders, by name. Each module exports `name`, `label` and
// `setup(tools, fetch, {baseUrl, maxTurns}) → {run(prompt, {history?}) → final text}`.
export const CONTENDERS = ["bare", "toolnexus", "vercel", "agents"]
// Variants that explain a number (not peers): run only where run.mjs asks for them.
export const VARIANTS = ["toolnexus-core", "toolnexus-toollike", "broken"]

export async function load(name) {
  if (!CONTENDERS.includes(name) && !VARIANTS.includes(name)) throw new Error(`unknown contender ${name}`)
  return import(`./${name}.mjs`)
}
