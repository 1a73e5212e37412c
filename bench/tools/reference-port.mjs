// The reference JS port (`js/` of muthuishere/toolnexus), built in the bench's scratch space
// as a peer for the sub-agent, compaction and serving scenarios. Never committed: the scratch
// directory is gitignored.
//
//   node bench/tools/reference-port.mjs          # prepare (idempotent), print where it is
//
// From the local bare mirror: `git archive <commit> js | tar -x`, then `npm ci` and its build
// (`tsc`). A second call with the same commit does nothing. Overridable:
//   TOOLNEXUS_REFERENCE_MIRROR  the bare git dir (default /work/.mirror/muthuishere+toolnexus/repo)
//   TOOLNEXUS_REFERENCE_DIR     the scratch dir (default bench/.scratch/reference)
//   TOOLNEXUS_REFERENCE_REV     the commit or ref to build (default HEAD)
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))
export const MIRROR = process.env.TOOLNEXUS_REFERENCE_MIRROR ?? "/work/.mirror/muthuishere+toolnexus/repo"
export const DIR = path.resolve(process.env.TOOLNEXUS_REFERENCE_DIR ?? path.join(here, "..", ".scratch", "reference"))
const REV = process.env.TOOLNEXUS_REFERENCE_REV ?? "HEAD"

function git(...args) {
  return execFileSync("git", ["-C", MIRROR, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim()
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: ["ignore", "inherit", "inherit"] })
  if (r.status !== 0) throw new Error(`reference port: \`${cmd} ${args.join(" ")}\` in ${cwd} exited ${r.status}`)
}

/**
 * Makes sure the reference port is built for the mirror's `REV` and returns
 * `{dir, commit, version, url(file)}`; `url("dist/index.js")` is what to import.
 * Throws with a clear message when the mirror is absent.
 */
export function prepareReference({ quiet = false } = {}) {
  const js = path.join(DIR, "js")
  const stamp = path.join(DIR, "built-from")
  const version = () => JSON.parse(readFileSync(path.join(js, "package.json"), "utf8")).version
  const url = (file) => pathToFileURL(path.join(js, file)).href
  if (!existsSync(MIRROR)) {
    // No mirror: a copy built earlier (by this script, or by hand) still serves.
    if (existsSync(path.join(js, "dist", "index.js"))) {
      const commit = existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : "unknown commit"
      return { dir: js, commit, version: version(), url }
    }
    throw new Error(
      `reference port: no mirror at ${MIRROR} and no built copy at ${js}/dist/index.js. Set ` +
        "TOOLNEXUS_REFERENCE_MIRROR to a clone (bare or not) of https://github.com/muthuishere/toolnexus, or " +
        "TOOLNEXUS_REFERENCE_DIR to a directory whose js/ holds the reference port built (npm ci && npm run build).",
    )
  }
  const commit = git("rev-parse", `${REV}^{commit}`)
  const built = existsSync(path.join(js, "dist", "index.js")) && existsSync(stamp) && readFileSync(stamp, "utf8").trim() === commit
  if (!built) {
    if (!quiet) console.error(`reference port: building ${commit.slice(0, 12)} into ${DIR}`)
    rmSync(DIR, { recursive: true, force: true })
    mkdirSync(DIR, { recursive: true })
    // `git archive <rev> js` writes only js/. (A partial mirror may warn on stderr about other
    // trees' missing objects: its stderr is kept for the error message, not printed.)
    const tar = execFileSync("git", ["-C", MIRROR, "archive", "--format=tar", commit, "js"], { maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "pipe"] })
    execFileSync("tar", ["-x", "-C", DIR], { input: tar })
    run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], js)
    run("npm", ["run", "build", "--silent"], js)
    writeFileSync(stamp, commit + "\n")
  }
  return { dir: js, commit, version: version(), url }
}

/** Imports the built reference port (`dist/index.js`), preparing it first. */
export async function importReference() {
  const ref = prepareReference({ quiet: true })
  return { ...ref, lib: await import(ref.url("dist/index.js")) }
}

/** The version of a package the reference installed (e.g. its `@modelcontextprotocol/sdk`). */
export function referenceDependencyVersion(name) {
  const file = path.join(DIR, "js", "node_modules", ...name.split("/"), "package.json")
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).version : null
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const ref = prepareReference()
    console.log(`reference port ${ref.version} (${ref.commit.slice(0, 12)}) built at ${ref.dir}`)
  } catch (e) {
    console.error(e.message)
    process.exit(1)
  }
}
