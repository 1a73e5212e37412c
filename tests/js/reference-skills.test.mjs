// loadSkills (SPEC §3) and the two skill texts, as the reference port exports them: a skill
// source without a toolkit (the skills by name, the `skill` tool, the prompt), from data and
// from a directory on Node's filesystem, with the filter and the sample limit.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { mkdtemp, mkdir, writeFile, rm, realpath } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { loadSkills, SKILLS_PROMPT_PREAMBLE, SKILL_TOOL_DESCRIPTION, Tool, createToolkit } from "../../pkg/node.mjs"
import { assertCode, rejection } from "./support/helpers.mjs"

// The reference port's texts, byte for byte.
const PREAMBLE = "Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description."
const DESCRIPTION = `Load a specialized skill when the task at hand matches one of the skills listed in the system prompt.

Use this tool to inject the skill's instructions and resources into current conversation. The output may contain detailed workflow guidance as well as references to scripts, files, etc in the same directory as the skill.

The skill name must match one of the skills listed in your system prompt.`

const temp = await realpath(await mkdtemp(path.join(os.tmpdir(), "toolnexus-loadskills-")))
after(() => rm(temp, { recursive: true, force: true }))

test("the skill texts are the reference port's, and the ones the tool and prompt use", async () => {
  assert.equal(SKILLS_PROMPT_PREAMBLE, PREAMBLE)
  assert.equal(SKILL_TOOL_DESCRIPTION, DESCRIPTION)
  const toolkit = await createToolkit({ builtins: false, skills: [{ name: "a", description: "d", content: "c" }] })
  assert.equal(toolkit.get("skill").description, SKILL_TOOL_DESCRIPTION)
  assert.ok(toolkit.skillsPrompt().startsWith(`${SKILLS_PROMPT_PREAMBLE}\n\n## Available Skills\n`))
})

test("data skills: the skills by name, the skill tool, and the prompt", async () => {
  const source = await loadSkills({ skills: [{ name: "y", description: "d", content: "just text" }, { name: "x", content: "no description" }] })
  assert.deepEqual(Object.keys(source.skills), ["y", "x"])
  assert.deepEqual(source.skills.y, { name: "y", description: "d", location: "skill://y/", content: "just text", origin: "logical", resources: [], base: "skill://y/" })
  assert.ok(source.tool instanceof Tool)
  assert.equal(source.tool.name, "skill")
  assert.equal(source.tool.source, "skill")
  assert.equal(source.prompt(), `${PREAMBLE}\n\n## Available Skills\n- **y**: d`)
  const loaded = await source.tool.execute({ name: "y" })
  assert.equal(loaded.isError, false)
  assert.equal(
    loaded.output,
    '<skill_content name="y">\n# Skill: y\n\njust text\n\nBase directory for this skill: skill://y/\n' +
      "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.\n</skill_content>",
  )
  const missing = await source.tool.execute({ name: "nope" })
  assert.deepEqual(missing, { output: 'Skill "nope" not found. Available skills: x, y', isError: true })
  assert.equal((await loadSkills({ skills: [{ name: "q", content: "" }] })).prompt(), "No skills are currently available.")
})

test("filter keeps an allowlist or drops names; sampleLimit caps or removes the file list", async () => {
  const defs = ["a", "b", "c"].map((name) => ({ name, description: name, content: name }))
  const names = async (filter) => Object.keys((await loadSkills({ skills: defs, filter })).skills).sort()
  assert.deepEqual(await names({ a: true, b: true }), ["a", "b"])
  assert.deepEqual(await names({ c: false }), ["a", "b"])
  assert.deepEqual(await names({}), ["a", "b", "c"])
  assert.deepEqual(await names(undefined), ["a", "b", "c"])
  const files = [{ name: "z", content: "z", resources: ["1.md", "2.md", "3.md"] }]
  const capped = await (await loadSkills({ skills: files, sampleLimit: 2 })).tool.execute({ name: "z" })
  assert.match(capped.output, /<skill_files>\n<file>1\.md<\/file>\n<file>2\.md<\/file>\n<\/skill_files>/)
  const off = await (await loadSkills({ skills: files, sampleLimit: -1 })).tool.execute({ name: "z" })
  assert.doesNotMatch(off.output, /skill_files/)
})

test("a directory (a string, an array, or {dirs}) on Node's filesystem", async () => {
  const dir = path.join(temp, "skills", "pdf")
  await mkdir(dir, { recursive: true })
  await writeFile(path.join(dir, "SKILL.md"), "---\nname: pdf\ndescription: Work with PDFs\n---\nUse pdftk.\n")
  await writeFile(path.join(dir, "notes.txt"), "n")
  const root = path.join(temp, "skills")
  for (const input of [root, [root], { dirs: root }]) {
    const source = await loadSkills(input)
    assert.deepEqual(Object.keys(source.skills), ["pdf"])
    assert.equal(source.skills.pdf.location, path.join(dir, "SKILL.md"))
    assert.equal(source.skills.pdf.origin, "fs")
    assert.equal(source.prompt(), `${PREAMBLE}\n\n## Available Skills\n- **pdf**: Work with PDFs`)
  }
  const out = (await (await loadSkills(root)).tool.execute({ name: "pdf" })).output
  assert.ok(out.includes(`Base directory for this skill: ${pathToFileURL(dir).href}\n`), out)
  assert.ok(out.includes(`<file>${path.join(dir, "notes.txt")}</file>`), out)
})

test("bad input rejects with a code, never a crash", async () => {
  assertCode(await rejection(loadSkills(5)), "invalid_options")
  assertCode(await rejection(loadSkills({ skills: "x" })), "invalid_options")
  assertCode(await rejection(loadSkills({ skills: [], filter: { a: 1 } })), "invalid_options")
  assertCode(await rejection(loadSkills({ skills: [], sampleLimit: 1.5 })), "invalid_options")
})
