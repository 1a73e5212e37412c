// Skills through the public API: data skills, skillProvider, skillsDir on Node's real
// filesystem (symlinks, cycles, relative roots) and on a MemoryFileSystem, skillsFilter,
// disableSkills, skillSampleLimit, listSkills, the prompt in a run, and bad options.
import { test, beforeEach, afterEach, after } from "node:test"
import assert from "node:assert/strict"
import { mkdtemp, mkdir, writeFile, symlink, rm, realpath } from "node:fs/promises"
import { existsSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { pathToFileURL, fileURLToPath } from "node:url"
import { createToolkit, createInProcessClient, listSkills, MemoryFileSystem, Tool } from "../../pkg/node.mjs"
import { assertCode, rejection } from "./support/helpers.mjs"

const PREAMBLE = "Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description."
const RELATIVE = "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory."
const kit = (options) => createToolkit({ builtins: false, ...options })
const load = async (toolkit, name) => toolkit.execute("skill", { name })

let warnings
let realWarn
beforeEach(() => {
  warnings = []
  realWarn = console.warn
  console.warn = (...args) => warnings.push(args.join(" "))
})
afterEach(() => {
  console.warn = realWarn
})

const temp = await realpath(await mkdtemp(path.join(os.tmpdir(), "toolnexus-skills-")))
after(() => rm(temp, { recursive: true, force: true }))

async function put(rel, text) {
  const file = path.join(temp, rel)
  await mkdir(path.dirname(file), { recursive: true })
  await writeFile(file, text)
  return file
}

test("data skills give one skill tool and the prompt, byte-exact", async () => {
  const toolkit = await kit({
    skills: [
      { name: "pdf", description: "Reads PDFs", content: "\n  Use pdftotext.\n" },
      { name: "api", description: "Calls the API", content: "Body", resources: ["spec.yaml", "auth.md"], base: "https://cdn.test/api/" },
      { name: "hidden", content: "no description" },
    ],
  })
  assert.deepEqual(toolkit.tools().map((t) => [t.name, t.source]), [["skill", "skill"]])
  assert.ok(toolkit.get("skill") instanceof Tool)
  assert.equal(toolkit.skillsPrompt(), `${PREAMBLE}\n\n## Available Skills\n- **api**: Calls the API\n- **pdf**: Reads PDFs`)
  assert.deepEqual(await load(toolkit, "pdf"), {
    output: `<skill_content name="pdf">\n# Skill: pdf\n\nUse pdftotext.\n\nBase directory for this skill: skill://pdf/\n${RELATIVE}\n</skill_content>`,
    isError: false,
    metadata: { name: "pdf", dir: "skill://pdf/" },
  })
  assert.equal((await load(toolkit, "api")).output,
    `<skill_content name="api">\n# Skill: api\n\nBody\n\nBase directory for this skill: https://cdn.test/api/\n${RELATIVE}\nNote: file list is sampled.\n\n<skill_files>\n<file>spec.yaml</file>\n<file>auth.md</file>\n</skill_files>\n</skill_content>`)
  assert.deepEqual(await load(toolkit, "nope"), { output: 'Skill "nope" not found. Available skills: api, hidden, pdf', isError: true })
  const bad = await toolkit.execute("skill", {})
  assert.ok(bad.isError && bad.output.startsWith('Invalid arguments for tool "skill"'))
})

test("no skill source: no skill tool and an empty prompt; a source without descriptions says so", async () => {
  const none = await kit({ skillsFilter: { a: true }, skillSampleLimit: 3 })
  assert.equal(none.get("skill"), undefined)
  assert.equal(none.skillsPrompt(), "")
  const quiet = await kit({ skills: [] })
  assert.ok(quiet.get("skill"))
  assert.equal(quiet.skillsPrompt(), "No skills are currently available.")
  assert.equal((await load(quiet, "x")).output, 'Skill "x" not found. Available skills: none')
})

test("the prompt orders names as localeCompare does", async () => {
  const names = ["b", "B", "a", "A", "a-b", "a_b", "ab", "a.b", "a1", "a10", "a2", "Zed", "zed", "x~", "x$", "x0", "_x", "-x"]
  const toolkit = await kit({ skills: names.map((name) => ({ name, description: "d", content: "" })) })
  const listed = toolkit.skillsPrompt().split("\n").slice(4).map((l) => l.slice(4, l.indexOf("**:")))
  assert.deepEqual(listed, [...names].sort((x, y) => x.localeCompare(y)))
})

test("skillProvider is awaited once; its failure is isolated with a warning", async () => {
  let calls = 0
  const provider = async () => {
    calls++
    return [{ name: "late", description: "From the provider", content: "x" }, { name: "pdf", description: "dup", content: "" }]
  }
  const toolkit = await kit({ skills: [{ name: "pdf", description: "Reads PDFs", content: "" }], skillProvider: provider })
  assert.equal(calls, 1)
  assert.equal(toolkit.skillsPrompt(), `${PREAMBLE}\n\n## Available Skills\n- **late**: From the provider\n- **pdf**: Reads PDFs`)
  assert.deepEqual(warnings, ['[toolnexus] duplicate skill name "pdf" (skill://pdf/) — keeping first'])
  warnings.length = 0
  const sync = await kit({ skillProvider: () => [{ name: "s", description: "sync", content: "" }] })
  assert.ok(sync.skillsPrompt().endsWith("- **s**: sync"))
  for (const [failing, why] of [
    [async () => { throw new Error("catalog offline") }, "catalog offline"],
    [() => { throw "plain string" }, "plain string"],
    [() => "not an array", "it must return an array of skills"],
  ]) {
    warnings.length = 0
    const toolkit = await kit({ skills: [{ name: "kept", description: "still here", content: "" }], skillProvider: failing })
    assert.ok(toolkit.skillsPrompt().endsWith("- **kept**: still here"))
    assert.equal(warnings.length, 1)
    assert.ok(warnings[0].startsWith(`[toolnexus] skill provider failed: ${why}`), warnings[0])
  }
})

test("skillsFilter and disableSkills select skills for the prompt and the tool alike", async () => {
  const skills = ["a", "b", "c"].map((name) => ({ name, description: name.toUpperCase(), content: "" }))
  const names = async (options) => {
    const toolkit = await kit({ skills, ...options })
    return (await load(toolkit, "?")).output.split(": ")[1]
  }
  assert.equal(await names({ skillsFilter: { b: true, c: false } }), "b")
  assert.equal(await names({ skillsFilter: { b: false } }), "a, c")
  assert.equal(await names({ disableSkills: ["a", "b"] }), "c")
  assert.equal(await names({ disableSkills: ["a", "b"], skillsFilter: { a: true } }), "a")
  assert.equal(await names({ skillsFilter: {} }), "a, b, c")
  warnings.length = 0
  assert.equal(await names({ skillsFilter: { ghost: false } }), "a, b, c")
  assert.deepEqual(warnings, ['[toolnexus] skill filter name "ghost" matched no skill'])
  const toolkit = await kit({ skills, disableSkills: ["b"] })
  assert.ok(!toolkit.skillsPrompt().includes("**b**"))
})

async function fixture() {
  const root = path.join(temp, "skills")
  await put("skills/alpha/SKILL.md", "---\nname: alpha\ndescription: |\n  Does alpha.\n  Twice.\n---\n\n# Alpha\n\nRun it.\n")
  await put("skills/alpha/README.md", "r")
  await put("skills/alpha/scripts/run.sh", "s")
  await put("skills/alpha/ref/notes.md", "n")
  await put("skills/nested/deep/beta/SKILL.md", "---\nname: beta\n---\nBeta body")
  await put("skills/broken/SKILL.md", "---\nname: [oops\n---\n")
  await put("skills/anonymous/SKILL.md", "---\ndescription: no name\n---\n")
  await put("outside/gamma/SKILL.md", "---\nname: gamma\ndescription: Linked in\n---\nGamma")
  if (!existsSync(path.join(root, "linked"))) {
    await symlink(path.join(temp, "outside/gamma"), path.join(root, "linked"))
    await symlink(root, path.join(root, "alpha/loop"))
  }
  return root
}

test("skillsDir discovers **/SKILL.md on Node's filesystem, following symlinks without looping", async () => {
  const root = await fixture()
  const toolkit = await kit({ skillsDir: root })
  assert.deepEqual(warnings, [])
  assert.equal(toolkit.skillsPrompt(), `${PREAMBLE}\n\n## Available Skills\n- **alpha**: Does alpha.\nTwice.\n- **gamma**: Linked in`)
  const dir = path.join(root, "alpha")
  assert.deepEqual(await load(toolkit, "alpha"), {
    output: `<skill_content name="alpha">\n# Skill: alpha\n\n# Alpha\n\nRun it.\n\nBase directory for this skill: ${pathToFileURL(dir).href}\n${RELATIVE}\nNote: file list is sampled.\n\n<skill_files>\n<file>${dir}/README.md</file>\n<file>${dir}/scripts/run.sh</file>\n<file>${dir}/ref/notes.md</file>\n</skill_files>\n</skill_content>`,
    isError: false,
    metadata: { name: "alpha", dir },
  })
  assert.ok((await load(toolkit, "gamma")).output.includes(`Base directory for this skill: ${pathToFileURL(path.join(root, "linked")).href}\n`))
  assert.ok((await load(toolkit, "beta")).output.startsWith("<skill_content name=\"beta\">\n# Skill: beta\n\nBeta body\n"))
})

test("skillSampleLimit caps or omits the directory file list", async () => {
  const root = await fixture()
  const dir = path.join(root, "alpha")
  const two = await kit({ skillsDir: [root], skillSampleLimit: 2 })
  assert.ok((await load(two, "alpha")).output.includes(`<skill_files>\n<file>${dir}/README.md</file>\n<file>${dir}/scripts/run.sh</file>\n</skill_files>`))
  const none = await kit({ skillsDir: [root], skillSampleLimit: -1 })
  assert.ok((await load(none, "alpha")).output.endsWith(`${pathToFileURL(dir).href}\n${RELATIVE}\n</skill_content>`))
})

test("a relative skillsDir resolves against the working directory; a missing one warns", async () => {
  await fixture()
  const cwd = process.cwd()
  process.chdir(temp)
  try {
    const toolkit = await kit({ skillsDir: ["./skills", "missing"] })
    assert.deepEqual(warnings, ["[toolnexus] skills dir not found: missing"])
    const out = (await load(toolkit, "alpha")).output
    assert.ok(out.includes(`Base directory for this skill: ${pathToFileURL(path.join(temp, "skills/alpha")).href}\n`))
    assert.ok(out.includes("<file>skills/alpha/README.md</file>"), out)
  } finally {
    process.chdir(cwd)
  }
})

test("skillsDir reads a MemoryFileSystem given as fs", async () => {
  const files = new MemoryFileSystem({ "/app/skills/m/SKILL.md": "---\nname: m\ndescription: In memory\n---\nBody", "/app/skills/m/x.txt": "x" })
  const toolkit = await kit({ fs: files, skillsDir: "/app/skills" })
  assert.ok(toolkit.skillsPrompt().endsWith("- **m**: In memory"))
  assert.ok((await load(toolkit, "m")).output.includes("file:///app/skills/m\n"))
  assert.ok((await load(toolkit, "m")).output.includes("<file>/app/skills/m/x.txt</file>"))
})

test("listSkills returns every skill unfiltered and every skip with its reason", async () => {
  const root = await fixture()
  const promise = listSkills(root)
  assert.ok(promise instanceof Promise)
  const byDirs = await promise
  assert.deepEqual(byDirs.skills.map((s) => s.name).sort(), ["alpha", "beta", "gamma"])
  const reasons = Object.fromEntries(byDirs.skipped.map((s) => [path.relative(root, s.location), s.reason]))
  assert.deepEqual(reasons, { "broken/SKILL.md": "malformed-frontmatter", "anonymous/SKILL.md": "missing-name" })
  const alpha = byDirs.skills.find((s) => s.name === "alpha")
  assert.deepEqual(alpha, { name: "alpha", description: "Does alpha.\nTwice.", location: path.join(root, "alpha/SKILL.md"), content: "\n# Alpha\n\nRun it.\n", origin: "fs" })
  const mixed = await listSkills({ dirs: [root], skills: [{ name: "alpha", content: "" }, { content: "nameless" }], skillProvider: () => [{ name: "p", content: "" }] })
  assert.deepEqual(mixed.skills.at(-1), { name: "p", location: "skill://p/", content: "", origin: "logical", resources: [], base: "skill://p/" })
  assert.deepEqual(mixed.skipped.slice(-2), [{ location: "skill://alpha/", reason: "duplicate-name" }, { location: "skill://", reason: "missing-name" }])
  assertCode(await rejection(listSkills(5)), "invalid_options")
  assertCode(await rejection(listSkills({ skills: "x" })), "invalid_options")
})

test("a run's system prompt carries the skills prompt", async () => {
  const toolkit = await kit({ skills: [{ name: "pdf", description: "Reads PDFs", content: "" }] })
  const seen = []
  const client = createInProcessClient({ model: "m", systemPrompt: "Be brief.", generate: async (r) => { seen.push(r); return { content: "ok" } } })
  await client.run("hi", { toolkit })
  assert.deepEqual(seen[0].messages[0], { role: "system", content: `Be brief.\n\n${PREAMBLE}\n\n## Available Skills\n- **pdf**: Reads PDFs` })
})

test("bad skill options reject with invalid_options", async () => {
  for (const options of [
    { skills: "x" }, { skills: [{ name: 5, content: "" }] }, { skills: [5] },
    { skillProvider: 5 }, { skillsDir: 5 }, { skillsDir: ["a", 5] },
    { skills: [], skillsFilter: { a: 1 } }, { skills: [], skillsFilter: ["a"] },
    { skills: [], disableSkills: "a" }, { skills: [], skillSampleLimit: 1.5 }, { skills: [], skillSampleLimit: -2 },
    { skills: [], skillSampleLimit: "3" }, { skillsDir: "/x", fs: "memory" },
  ]) {
    assertCode(await rejection(createToolkit(options)), "invalid_options")
  }
})

const conformance = fileURLToPath(new URL("../../../shared/conformance/skills", import.meta.url))
test("conformance: the hello-world fixture renders as the reference does", { skip: !existsSync(path.join(conformance, "hello-world/SKILL.md")) && "../shared/conformance is absent" }, async () => {
  const toolkit = await kit({ skillsDir: conformance })
  const dir = path.join(conformance, "hello-world")
  const out = (await load(toolkit, "hello-world")).output
  assert.ok(out.startsWith('<skill_content name="hello-world">\n# Skill: hello-world\n\n# Hello World Skill\n\nThis is the skill body.'))
  assert.ok(out.endsWith(`printed in the tool output.\n\nBase directory for this skill: ${pathToFileURL(dir).href}\n${RELATIVE}\nNote: file list is sampled.\n\n<skill_files>\n<file>${dir}/scripts/greet.sh</file>\n</skill_files>\n</skill_content>`))
})
