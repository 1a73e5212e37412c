// The `grep` built-in's helpers (the full build's only): JavaScript's own RegExp, so a pattern
// means what it means in JS. Apart from shim.js so the lean build's glue does not ship them.

/** `new RegExp(pattern)`, or `[1, thrown]` when the pattern is invalid. */
export function compileRegExp(pattern) {
  try {
    return new RegExp(pattern)
  } catch (thrown) {
    return [1, thrown]
  }
}

/** The indices of the lines of `text` (split on "\n") that `re.test` accepts, at most `limit`. */
export function matchingLines(re, text, limit) {
  const out = []
  const lines = text.split("\n")
  for (let i = 0; i < lines.length && out.length < limit; i++) {
    if (re.test(lines[i])) out.push(i)
  }
  return Uint32Array.from(out)
}
