// A negative control for --smoke: the bare loop with one tool result corrupted. The harness
// must reject it (a check that never fails proves nothing).
import * as bare from "./bare.mjs"

export const name = "broken"
export const label = "negative control"

export async function setup(tools, fetch, options) {
  const sabotaged = tools.map((t, i) => (i === 1 ? { ...t, run: (args) => `${t.run(args)}!` } : t))
  return bare.setup(sabotaged, fetch, options)
}
