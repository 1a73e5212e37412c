// The demo's tools, one per suspension shape plus three ordinary ones (their specs are in
// everyday-tools.js). Each suspending tool returns pending(...) until it is re-run with the
// host's answer (ctx.answer).
import { defineTool, pending } from "/pkg/index.js"
import { CALCULATOR, CLOCK, ROLL_DICE } from "./everyday-tools.js"

const ref = (prefix) => `${prefix}-${Math.floor(1000 + Math.random() * 9000)}`

/** An approval-gated action: nothing moves until a person approves. */
export const transferMoney = defineTool({
  name: "transfer_money",
  description: "Sends money from the user's account to someone. Always asks the user to approve first.",
  inputSchema: {
    type: "object",
    properties: {
      to: { type: "string", description: "Who receives the money" },
      amount: { type: "number", exclusiveMinimum: 0 },
      currency: { type: "string", enum: ["EUR", "USD", "GBP"] },
      note: { type: "string" },
    },
    required: ["to", "amount"],
    additionalProperties: false,
  },
  run: ({ to, amount, currency = "EUR", note }, ctx) =>
    ctx.answer?.ok
      ? `Sent ${amount} ${currency} to ${to}${note ? ` ("${note}")` : ""}. Reference ${ref("TX")}.`
      : pending({ kind: "approval", prompt: `Send ${amount} ${currency} to ${to}?`, data: { to, amount, currency, ...(note ? { note } : {}) } }),
})

/** The form the booking tool asks the user to fill in (rendered from data.schema). */
export const BOOKING_FORM = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name on the booking", minLength: 1 },
    guests: { type: "integer", title: "Guests", minimum: 1, maximum: 12, default: 2 },
    time: { type: "string", title: "Time", enum: ["18:30", "19:30", "20:30", "21:30"], default: "19:30" },
    terrace: { type: "boolean", title: "Terrace seat if the weather allows", default: false },
  },
  required: ["name", "guests", "time"],
}

/** An input request: the answer's data is the filled-in form. */
export const bookTable = defineTool({
  name: "book_table",
  description: "Books a restaurant table; asks the user for the booking details with a form.",
  inputSchema: { type: "object", properties: { restaurant: { type: "string" } }, required: ["restaurant"] },
  run: ({ restaurant }, ctx) => {
    const form = ctx.answer?.ok ? ctx.answer.data ?? {} : null
    if (!form) return pending({ kind: "input", prompt: `A few details for your table at ${restaurant}`, data: { schema: BOOKING_FORM } })
    const { name, guests, time, terrace } = form
    if (typeof name !== "string" || !Number.isInteger(guests) || typeof time !== "string") {
      return { output: "The booking form came back incomplete.", isError: true }
    }
    const seat = terrace ? " on the terrace" : ""
    return `Booked ${restaurant} for ${guests} at ${time}${seat}, under ${name}. Confirmation ${ref("BK")}.`
  },
})

/** An authorization: the url is the demo's own login page, which redirects back with a code. */
export const connectCalendar = defineTool({
  name: "connect_calendar",
  description: "Reads today's events from the user's DemoCal calendar; the user must sign in first.",
  inputSchema: { type: "object", properties: {} },
  run: (_args, ctx) => {
    const code = ctx.answer?.ok ? String(ctx.answer.data?.code ?? "") : ""
    if (!code) {
      const id = `auth-${crypto.randomUUID()}`
      const back = location.pathname
      const url = new URL(`login.html?state=${encodeURIComponent(id)}&return=${encodeURIComponent(back)}`, location.href).href
      return pending({ id, kind: "authorization", prompt: "Sign in to DemoCal so the assistant can read your calendar", url })
    }
    if (!/^dc_[0-9a-f]{16}$/.test(code)) return { output: "DemoCal rejected the sign-in code.", isError: true }
    return "Connected to DemoCal. Today: 09:30 Stand-up with the platform team; 12:30 Lunch with Ada; 16:00 Design review (room 4B)."
  },
})

/** A question: the answer's data.answer is what the user typed or picked. */
export const askUser = defineTool({
  name: "ask_user",
  description: "Asks the user a question and waits for the answer. Offer options when there are obvious choices.",
  inputSchema: {
    type: "object",
    properties: { question: { type: "string" }, options: { type: "array", items: { type: "string" } } },
    required: ["question"],
  },
  run: ({ question, options }, ctx) => {
    const answer = ctx.answer?.ok ? String(ctx.answer.data?.answer ?? "").trim() : ""
    if (answer) return `The user answered: ${answer}`
    return pending({ kind: "question", prompt: question, data: options?.length ? { options } : {} })
  },
})

export const calculator = defineTool(CALCULATOR)
export const clock = defineTool(CLOCK)
export const rollDice = defineTool(ROLL_DICE)

export const ALL_TOOLS = [transferMoney, bookTable, connectCalendar, askUser, calculator, clock, rollDice]

/** Example arguments for the Toolkit panel's "run a tool" form. */
export const EXAMPLES = {
  transfer_money: { to: "Ada", amount: 42, currency: "EUR" },
  book_table: { restaurant: "Chez Ada" },
  connect_calendar: {},
  ask_user: { question: "Tea or coffee?", options: ["Tea", "Coffee"] },
  calculator: { a: 6, b: 7, op: "multiply" },
  clock: { timeZone: "Europe/Paris" },
  roll_dice: { count: 3, sides: 6 },
}
