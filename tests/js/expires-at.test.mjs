// A request's `expiresAt` against the platform's own reader: over a generated corpus of a few
// thousand strings (every form of the ECMAScript Date Time String Format, every field at and
// past its bounds, mutations of valid strings, and the non-ISO forms Date.parse also reads),
// `pending({expiresAt})` accepts exactly the ISO-shaped strings `Date.parse` reads, and throws
// `invalid_request` for everything else; every accepted deadline approves an answer before it
// and declines one after it, in several time zones (a date-time without an offset is local
// time). A stored request with an unreadable `expiresAt` is refused on resume, and a hand-made
// one is refused before anyone is asked.
import { test } from "node:test"
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { createInProcessClient, createToolkit, defineTool, pending } from "../../pkg/node.mjs"
import { assertCode, prng } from "./support/helpers.mjs"

// ---------------------------------------------------------------------------------------------
// The corpus

const random = prng(20300101)
const pick = (list) => list[Math.floor(random() * list.length)]

const YEARS = ["0000", "0001", "1969", "1970", "2030", "9999", "+000000", "+002030", "-000001", "-271821",
  "-271822", "+275760", "+275761", "+999999", "-999999", "-000000", "203", "20300", "+2030", "02030"]
const MONTHS = ["", "00", "01", "02", "09", "12", "13", "1", "001"]
const DAYS = ["", "00", "01", "19", "28", "29", "30", "31", "32", "1"]
const SEPARATORS = ["T", "t", " ", "", "  ", "_", "TT"]
const HOURS = ["00", "09", "12", "23", "24", "25", "0", "000"]
const MINUTES = ["", "00", "01", "59", "60", "5"]
const SECONDS = ["", "00", "30", "59", "60", "7"]
const FRACTIONS = ["", ".", ".0", ".5", ".05", ".123", ".1239", ".000", ".0000000001", ".999999999999", ".0001", ",5"]
const OFFSETS = ["", "Z", "z", "+00:00", "-00:00", "+01:00", "-01:00", "+05:30", "+23:59", "-23:59", "+24:00",
  "+25:00", "+99:00", "+12:60", "+0530", "-2359", "+2400", "+0060", "+05", "+5:30", "+05:3", "+05:30:00", " Z", "ZZ", "UTC"]

/** Strings made of the fields, most of them valid, many with exactly one field out of bounds. */
function fieldStrings(count) {
  const out = []
  for (let i = 0; i < count; i++) {
    const valid = random() < 0.7
    const year = valid ? pick(YEARS.slice(0, 9)) : pick(YEARS)
    const month = valid ? pick(["", "01", "02", "12"]) : pick(MONTHS)
    let date = year
    if (month !== "") {
      date += "-" + month
      const day = valid ? pick(["", "01", "28", "29", "30", "31"]) : pick(DAYS)
      if (day !== "") date += "-" + day
    }
    if (random() < 0.25) {
      out.push(date + (random() < 0.1 ? pick(OFFSETS) : ""))
      continue
    }
    const minute = pick(valid ? ["00", "01", "59"] : MINUTES)
    const second = minute === "" ? "" : pick(valid ? ["", "00", "59"] : SECONDS)
    let time = pick(valid ? ["00", "12", "23", "24"] : HOURS) + (minute === "" ? "" : ":" + minute)
    if (second !== "") time += ":" + second + pick(FRACTIONS)
    out.push(date + pick(valid ? ["T", "t", " "] : SEPARATORS) + time + pick(valid ? OFFSETS.slice(0, 10) : OFFSETS))
  }
  return out
}

/** Every field at its bounds and one past them, in the full form with each separator. */
function boundStrings() {
  const out = []
  const base = { y: "2030", mo: "06", d: "15", h: "12", mi: "30", s: "45", f: ".678", o: "Z" }
  const variants = {
    y: ["0000", "9999", "+000000", "-000001", "+275760", "-271821", "-000000"],
    mo: ["00", "01", "12", "13"],
    d: ["00", "01", "28", "29", "30", "31", "32"],
    h: ["00", "23", "24", "25"],
    mi: ["00", "59", "60"],
    s: ["00", "59", "60"],
    f: ["", ".0", ".9", ".99", ".999", ".9999", ".000000000000000000001", ".00000000000000000000"],
    o: ["", "Z", "z", "+00:00", "-00:00", "+23:59", "-23:59", "+24:00", "-24:00", "+23:60", "+0000", "+2359", "+2400", "+2360"],
  }
  for (const [field, values] of Object.entries(variants)) {
    for (const value of values) {
      for (const sep of ["T", "t", " "]) {
        const p = { ...base, [field]: value }
        out.push(`${p.y}-${p.mo}-${p.d}${sep}${p.h}:${p.mi}:${p.s}${p.f}${p.o}`)
        out.push(`${p.y}-${p.mo}-${p.d}${sep}${p.h}:${p.mi}${p.o}`)
      }
    }
  }
  // Midnight at the end of a day, and the edges of ECMAScript's time range.
  for (const time of ["24:00", "24:00:00", "24:00:00.000", "24:00:00.0000000", "24:00:01", "24:01", "24:00:00.001", "24:00:00.0000001"]) {
    for (const sep of ["T", " "]) out.push(`2030-12-31${sep}${time}Z`, `2030-12-31${sep}${time}`)
  }
  out.push("+275760-09-13", "+275760-09-13T00:00Z", "+275760-09-13T00:00:00.001Z", "+275760-09-14",
    "+275760-09-13T00:00-00:01", "+275760-09-13T00:00+00:01", "-271821-04-20", "-271821-04-20T00:00Z",
    "-271821-04-19T23:59:59.999Z", "-271821-04-20T00:00+00:01", "-271821-04-20T00:00-00:01",
    // Local times at the edges: in range or not by the time zone.
    "+275760-09-13T00:00", "+275760-09-12T12:00", "-271821-04-20T00:00", "-271821-04-20T12:00")
  // Years V8's legacy reader (every space form) takes for two-digit ones.
  for (const year of ["0000", "0049", "0050", "0099", "0100", "+000049", "-000049", "+000100"]) {
    for (const sep of ["T", " ", "t"]) out.push(`${year}-03-04${sep}12:00Z`, `${year}${sep}12:00:00`)
  }
  // A day past the month's end (V8 runs on into the next month), leap years.
  for (const date of ["2030-02-28", "2030-02-29", "2028-02-29", "2030-02-30", "2030-02-31", "2030-04-31", "2100-02-29", "2000-02-29"]) {
    out.push(date, date + "T00:00Z")
  }
  return out
}

const MUTATION_ALPHABET = "0123456789-+:.TtZz WX/,"
/** One random edit (delete, insert, replace, duplicate, swap) of a valid string. */
function mutate(text) {
  const at = Math.floor(random() * (text.length + 1))
  switch (Math.floor(random() * 6)) {
    case 0: return text.slice(0, at) + text.slice(at + 1)
    case 1: return text.slice(0, at) + pick(MUTATION_ALPHABET) + text.slice(at)
    case 2: return text.slice(0, at) + pick(MUTATION_ALPHABET) + text.slice(at + 1)
    case 3: return text.slice(0, at) + text.slice(at, at + 1) + text.slice(at)
    case 4: return text.slice(0, at) + text.slice(at + 1, at + 2) + text.slice(at, at + 1) + text.slice(at + 2)
    default: return pick([" ", "\t", "\n", "x"]) === " " ? " " + text : text + pick([" ", "\n", "x"])
  }
}

/** Forms `Date.parse` also reads (its legacy reader, which differs between engines): not ISO. */
const NOT_ISO = ["Jan 1 2030", "1 January 2030 10:00 UTC", "Tue, 01 Jan 2030 00:00:00 GMT", "2030/01/01",
  "2030-1-1", "2030-01-1", "01/02/2030", "2030-01-01T00:00:00.000Z (UTC)", " 2030-01-01", "2030-01-01 ",
  "2030-01-01Z", "2030-01Z", "2030Z", "+2030-01-01", "02030-01-01", "2030-01-01  00:00Z", "2030-01-01 00:00 Z",
  "2030-01-01 00:00:00 +01:00", "2030-01-01 1:00", "2030-01-01 00:00:00+01", "2030-01-01 00:00:00+1:00",
  "2030-01-01T00:00:00.000Z\n", "soon", "", "tomorrow", "0", "1893456000000", "2030-01-01T00:00:00.000+00:00[UTC]"]

function corpus() {
  const valid = ["2030-01-01T00:00Z", "2030-01-01T00:00:00", "2030-01-01", "2030-06", "2030",
    "2030-01-01T12:34:56.789Z", "+002030-01-01T00:00:00+05:30", "2030-01-01 00:00:00z", "2030-01-01t00:00+0100"]
  const strings = [...valid, ...boundStrings(), ...fieldStrings(3000), ...NOT_ISO]
  for (let i = 0; i < 900; i++) strings.push(mutate(pick([...valid, ...strings.slice(0, 300)])))
  return [...new Set(strings)]
}

// ---------------------------------------------------------------------------------------------
// What must be accepted

/** The ECMAScript Date Time String Format's shape, with V8's `t`, `z`, space separator and
 *  `±HHmm` offset: what "ISO-shaped" means here. */
const ISO = /^([+-]\d{6}|\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:[Zz]|[+-](\d{2}):?(\d{2}))?)?$/

/**
 * Whether an ISO-shaped string is an instance of the format at all: its fields within the
 * format's bounds (year not -000000, month 01-12, day 01-31, hour 00-24 with 24 only as
 * 24:00:00.000…, minute and second 00-59, offset within ±23:59). For a string that is not one,
 * the specification lets `Date.parse` fall back on "implementation-specific heuristics", and
 * V8 does: its legacy reader makes some other date of `0001-13-32` (2032-01-13) or
 * `-000000-01-01`, and after a space separator reads offsets up to ±99:59. `pending` refuses
 * all of them. So it does a space separator after a year from 0000 to 0099: V8's legacy reader
 * (which reads every space form) takes it for a two-digit year, and `0049-01-01 00:00Z` for
 * 2049, not the instant written.
 */
function inBounds(text) {
  const [, year, month, day, hour, minute, second, fraction, offsetHour, offsetMinute] = ISO.exec(text)
  if (/^\S+ /.test(text) && +year >= 0 && +year <= 99) return false
  const within = (value, min, max) => value === undefined || (+value >= min && +value <= max)
  const midnight = hour !== "24" || (+minute === 0 && within(second, 0, 0) && !/[1-9]/.test(fraction ?? ""))
  return year !== "-000000" && within(month, 1, 12) && within(day, 1, 31) && within(hour, 0, 24) &&
    within(minute, 0, 59) && within(second, 0, 59) && midnight && within(offsetHour, 0, 23) && within(offsetMinute, 0, 59)
}

/** The same date-time with V8's variants written as the format has them (`T`, `Z`). */
const canonical = (text) => text.replace(/^(\S+)[ t]/, "$1T").replace(/z$/, "Z")

/** Whether `pending` must accept `text`: an ISO-shaped instance of the format that `Date.parse` reads. */
function accepted(text) {
  return ISO.test(text) && inBounds(text) && !Number.isNaN(Date.parse(text))
}

/** `pending`'s verdict: true, or false when it throws `invalid_request` (anything else fails). */
function pendingAccepts(expiresAt) {
  try {
    const result = pending({ kind: "approval", prompt: "x", expiresAt })
    assert.equal(result.metadata.pending.expiresAt, expiresAt, "kept as given")
    return true
  } catch (error) {
    assertCode(error, "invalid_request")
    assert.match(error.message, /^pending: expiresAt ".*" is not an ISO 8601 date-time \(such as "2030-01-02T03:04:05Z"\)$/s)
    return false
  }
}

// Time zones with whole, half-hour and large offsets, and daylight saving on both sides.
const ZONES = ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Kiritimati", "America/St_Johns", "Australia/Lord_Howe"]

function inZone(zone, body) {
  const before = process.env.TZ
  process.env.TZ = zone
  try {
    return body()
  } finally {
    if (before === undefined) delete process.env.TZ
    else process.env.TZ = before
  }
}

test("pending accepts exactly the ISO-shaped strings Date.parse reads, in every time zone", (t) => {
  const strings = corpus()
  assert.ok(strings.length > 3000, `corpus of ${strings.length}`)
  for (const zone of ZONES) {
    inZone(zone, () => {
      let yes = 0
      let shapedOutOfBounds = 0
      const wrong = []
      for (const text of strings) {
        const expected = accepted(text)
        if (pendingAccepts(text) !== expected) wrong.push([text, expected])
        if (expected) yes++
        if (ISO.test(text) && !inBounds(text)) shapedOutOfBounds++
        // Every accepted form names the instant its canonical form (`T`, `Z`) names.
        if (expected) assert.equal(Date.parse(text), Date.parse(canonical(text)), text)
      }
      assert.deepEqual(wrong.slice(0, 20), [], `${zone}: ${wrong.length} disagreements of ${strings.length}`)
      // The corpus has plenty of each kind.
      assert.ok(yes > 1500 && strings.length - yes > 1500, `${zone}: ${yes} accepted of ${strings.length}`)
      t.diagnostic(`${zone}: ${strings.length} strings, ${yes} accepted, ${shapedOutOfBounds} ISO-shaped out of bounds`)
      assert.ok(shapedOutOfBounds > 300, `${zone}: ${shapedOutOfBounds} ISO-shaped strings out of bounds`)
    })
  }
})

test("tests/date_parse_utc.json (the Rust host tests' fixture) is what this V8 reads", () => {
  const fixture = JSON.parse(readFileSync(new URL("../date_parse_utc.json", import.meta.url), "utf8"))
  assert.ok(fixture.length > 500)
  inZone("UTC", () => {
    for (const [text, ms] of fixture) assert.equal(accepted(text) ? Date.parse(text) : null, ms, JSON.stringify(text))
  })
})

test("the forms once read as nothing are deadlines now, and the non-ISO forms are refused", () => {
  for (const text of ["2030-01-01T00:00Z", "2030-01-01T00:00:00", "2030-01-01", "2030", "2030-01", "+002030-01-01"]) {
    assert.equal(pendingAccepts(text), true, text)
  }
  for (const text of NOT_ISO) assert.equal(pendingAccepts(text), false, JSON.stringify(text))
  for (const text of ["2030-01-01T00:00:60Z", "2030-01-01T00:00+25:00", "2030-13-01", "2030-01-32", "2030-01-01T24:00:01Z"]) {
    assert.equal(pendingAccepts(text), false, text)
    assert.ok(Number.isNaN(Date.parse(text)), `${text}: Date.parse refuses it too`)
  }
  assert.throws(() => pending({ kind: "approval", prompt: "x", expiresAt: "soon" }), {
    code: "invalid_request",
    message: 'pending: expiresAt "soon" is not an ISO 8601 date-time (such as "2030-01-02T03:04:05Z")',
  })
})

// ---------------------------------------------------------------------------------------------
// The deadline, in a run

const approve = async (request) => ({ id: request.id, ok: true })
const asks = defineTool({
  name: "asks",
  inputSchema: { type: "object", properties: { at: { type: "string" } }, required: ["at"] },
  run: ({ at }, ctx) => (ctx.answer?.ok ? "approved" : pending({ kind: "approval", prompt: at, expiresAt: at })),
})
const toolkit = await createToolkit({ extraTools: [asks] })

/** One run whose single turn calls `asks` once per deadline, every call approved by waitFor:
 *  each call's output, in order. */
async function approvals(deadlines) {
  let turn = 0
  const client = createInProcessClient({
    model: "m",
    waitFor: approve,
    generate: () => (turn++ === 0
      ? { toolCalls: deadlines.map((at, i) => ({ id: `c${i}`, name: "asks", arguments: { at } })) }
      : { content: "done" }),
  })
  const r = await client.run("go", { toolkit })
  assert.equal(r.status, "done")
  return r.toolCalls.map((call) => call.output)
}

/** `date` as local wall-clock fields, `YYYY-MM-DD`, `HH:mm`, `ss`. */
function local(date) {
  const two = (n) => String(n).padStart(2, "0")
  return [`${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`,
    `${two(date.getHours())}:${two(date.getMinutes())}`, two(date.getSeconds())]
}

/** Deadlines three hours either side of now (clear of any daylight-saving shift), in every form: `[text, whether it is still ahead]`. */
function nearNow() {
  const out = []
  for (const [shift, ahead] of [[3 * 3_600_000, true], [-3 * 3_600_000, false]]) {
    const when = new Date(Date.now() + shift)
    const [date, hm, ss] = local(when)
    for (const sep of ["T", "t", " "]) out.push([`${date}${sep}${hm}:${ss}`, ahead], [`${date}${sep}${hm}`, ahead])
    const iso = when.toISOString() // UTC, with Z
    out.push([iso, ahead], [iso.toLowerCase(), ahead], [iso.replace("Z", "+00:00"), ahead], [iso.replace("T", " "), ahead])
    // The same instant at +05:30 and -03:30.
    for (const [minutes, text] of [[330, "+05:30"], [-210, "-0330"]]) {
      const wall = new Date(when.getTime() + minutes * 60_000).toISOString().slice(0, 19)
      out.push([wall + text, ahead])
    }
  }
  // A date alone is UTC midnight: two days ahead, two days back.
  for (const [days, ahead] of [[2, true], [-2, false]]) {
    out.push([new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10), ahead])
  }
  return out
}

test("every accepted deadline approves before it and declines after it, in every time zone", async () => {
  const strings = corpus()
  for (const zone of ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Kiritimati"]) {
    const before = process.env.TZ
    process.env.TZ = zone
    try {
      const ours = strings.filter((text) => accepted(text))
      const cases = [...ours.map((text) => [text, Date.now() <= Date.parse(text)]), ...nearNow()]
      // No deadline of the corpus is within a minute of now: the verdict cannot flip mid-run.
      for (const [text] of cases) assert.ok(Math.abs(Date.parse(text) - Date.now()) > 60_000, text)
      for (let from = 0; from < cases.length; from += 400) {
        const batch = cases.slice(from, from + 400)
        const outputs = await approvals(batch.map(([text]) => text))
        const expected = batch.map(([text, ahead]) => (ahead ? "approved" : `declined/expired: ${text}`))
        assert.deepEqual(outputs, expected, zone)
      }
      assert.ok(cases.some(([, ahead]) => ahead) && cases.some(([, ahead]) => !ahead))
    } finally {
      if (before === undefined) delete process.env.TZ
      else process.env.TZ = before
    }
  }
})

test("a hand-made request with an unreadable expiresAt is refused before anyone is asked", async () => {
  const asked = []
  const handMade = defineTool({
    name: "handMade",
    run: () => ({ output: "Go?", isError: true, metadata: { pending: { id: "h1", kind: "approval", prompt: "Go?", expiresAt: "soon" } } }),
  })
  let turn = 0
  const client = createInProcessClient({
    model: "m",
    waitFor: async (request) => { asked.push(request); return { id: request.id, ok: true } },
    generate: () => (turn++ === 0 ? { toolCalls: [{ name: "handMade" }] } : { content: "told" }),
  })
  const r = await client.run("go", { toolkit: await createToolkit({ extraTools: [handMade] }) })
  assert.deepEqual(asked, [])
  assert.equal(r.status, "done")
  assert.deepEqual(r.toolCalls[0], {
    name: "handMade", args: {}, isError: true,
    output: 'invalid request: expiresAt "soon" is not an ISO 8601 date-time (such as "2030-01-02T03:04:05Z")',
  })
})

test("a durable resume reads a stored deadline the same way, and refuses one it cannot read", async () => {
  const halt = async (at) => {
    let turn = 0
    const client = createInProcessClient({
      model: "m",
      generate: () => (turn++ === 0 ? { toolCalls: [{ id: "c1", name: "asks", arguments: { at } }] } : { content: "done" }),
    })
    const halted = JSON.parse(JSON.stringify(await client.run("go", { toolkit })))
    assert.equal(halted.status, "pending")
    return { client, halted }
  }
  const resume = ({ client, halted }) => client.runWithAnswer({
    toolkit, history: halted.messages, pending: halted.pending, answer: { id: halted.pending.id, ok: true },
  })
  for (const [at, ahead] of nearNow()) {
    const r = await resume(await halt(at))
    assert.equal(r.toolCalls.at(-1).output, ahead ? "approved" : `declined/expired: ${at}`, at)
  }
  // Edited while stored (or written by another runtime): refused, saying why.
  const run = await halt("2999-01-01")
  for (const bad of ["soon", "Jan 1 2999", "2999-01-01T24:00:01Z"]) {
    run.halted.pending.expiresAt = bad
    await assert.rejects(resume(run), {
      code: "invalid_resume",
      message: `cannot resume: the pending request's expiresAt "${bad}" is not an ISO 8601 date-time (such as "2030-01-02T03:04:05Z")`,
    })
  }
})
