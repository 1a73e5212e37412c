// Small shared helpers for the client tests (node built-ins only).
import assert from "node:assert/strict"
import { execFile } from "node:child_process"

export const KEY_VARS = ["OPENAI_API_KEY", "OPENROUTER_API_KEY", "ANTHROPIC_API_KEY"]

/** Makes sure no API key leaks in from the environment of the test process. */
export function clearKeyEnv() {
  for (const name of KEY_VARS) delete process.env[name]
}

/** The error `fn()` throws synchronously; fails when it does not throw. */
export function thrown(fn) {
  try {
    fn()
  } catch (error) {
    return error
  }
  assert.fail("expected a throw")
}

/** The reason `promise` rejects with; fails when it resolves. */
export async function rejection(promise) {
  try {
    const value = await promise
    assert.fail(`expected a rejection, got ${JSON.stringify(value)?.slice(0, 300)}`)
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error
    return error
  }
}

/** Asserts `error` is an Error with `code` and returns it. */
export function assertCode(error, code) {
  assert.ok(error instanceof Error, `expected an Error, got ${String(error)}`)
  assert.equal(error.code, code, `code of: ${error.message}`)
  // Every error of the library is a ToolnexusError (its brand works across copies of the
  // package); a filesystem's Node-style codes (ENOENT, EISDIR...) stay plain Errors, as Node's.
  const fsCode = /^E[A-Z]+$/.test(code)
  assert.equal(error[Symbol.for("toolnexus.error")] === true, !fsCode, `a ToolnexusError: ${error.name}: ${error.message}`)
  return error
}

/** A promise with its resolvers. */
export function deferred() {
  let resolve, reject
  const promise = new Promise((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** Rejects after `ms` (so a broken concurrency test fails instead of hanging). */
export function timeout(ms, what) {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms).unref())
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `check()` is true, looking every 50 ms; fails naming `what` after 10 s. */
export async function eventually(check, what) {
  for (let i = 0; i < 200; i++) {
    if (check()) return
    await sleep(50)
  }
  assert.fail(`never happened: ${what}`)
}

/** Asserts `value` is plain JSON data (survives a JSON round trip unchanged). */
export function assertPlainJson(value) {
  assert.deepEqual(JSON.parse(JSON.stringify(value)), value)
}

/**
 * Runs `createClient(options).run("hi", {toolkit: <empty>})` in a child Node whose environment
 * is this one without any API key variable, plus `env`; resolves to the run's text.
 */
export function runClientInChild(env, options) {
  const pkg = new URL("../../../pkg/node.mjs", import.meta.url).href
  const script = `
    const { createClient, createToolkit } = await import(${JSON.stringify(pkg)})
    const client = createClient(${JSON.stringify(options)})
    const r = await client.run("hi", { toolkit: await createToolkit({}) })
    process.stdout.write(r.text)`
  const clean = { ...process.env }
  for (const name of KEY_VARS) delete clean[name]
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", script], { env: { ...clean, ...env }, timeout: 20_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)))
  })
}

/** A seeded PRNG (mulberry32): the same sequence on every run, so a failing case replays by its seed. */
export function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
