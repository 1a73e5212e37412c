// Small statistics helpers. All times are microseconds.

export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo)
}

/** p50 / p95 / p99 / min / max / mean of one process's samples. */
export function summarize(samples) {
  const s = Float64Array.from(samples).sort()
  let sum = 0
  for (const x of s) sum += x
  return {
    n: s.length,
    p50: quantile(s, 0.5),
    p95: quantile(s, 0.95),
    p99: quantile(s, 0.99),
    min: s[0],
    max: s[s.length - 1],
    mean: sum / s.length,
  }
}

export function median(xs) {
  return quantile(Float64Array.from(xs).sort(), 0.5)
}

/**
 * Combines the summaries of several processes (repeats): the median of their p50s, p95s and
 * p99s, and the min–max spread of the p50s across repeats and of every sample.
 */
export function combine(summaries) {
  const p50s = summaries.map((s) => s.p50)
  return {
    repeats: summaries.length,
    p50: median(p50s),
    p95: median(summaries.map((s) => s.p95)),
    p99: median(summaries.map((s) => s.p99)),
    p50Spread: [Math.min(...p50s), Math.max(...p50s)],
    min: Math.min(...summaries.map((s) => s.min)),
    max: Math.max(...summaries.map((s) => s.max)),
    samplesPerRepeat: summaries[0]?.n ?? 0,
    perRepeat: summaries.map(({ n, p50, p95, p99, min, max }) => ({ n, p50, p95, p99, min, max })),
  }
}

/** Least-squares line through (x, y): slope and intercept. */
export function linreg(xs, ys) {
  const n = xs.length
  const mx = xs.reduce((a, b) => a + b, 0) / n
  const my = ys.reduce((a, b) => a + b, 0) / n
  let sxy = 0
  let sxx = 0
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my)
    sxx += (xs[i] - mx) ** 2
  }
  const slope = sxx === 0 ? 0 : sxy / sxx
  return { slope, intercept: my - slope * mx }
}

export const fmt = (us) => {
  if (!Number.isFinite(us)) return "n/a"
  if (Math.abs(us) >= 100000) return `${(us / 1000).toFixed(0)} ms`
  if (Math.abs(us) >= 10000) return `${(us / 1000).toFixed(1)} ms`
  if (Math.abs(us) >= 100) return `${us.toFixed(0)} µs`
  return `${us.toFixed(1)} µs`
}

export const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? `${(a / b).toFixed(2)}×` : "n/a")
