#!/usr/bin/env node
// The client command the MCP conformance suite runs (`conformance client --command ...`): it
// appends the scenario server's URL as the last argument and names the scenario in
// MCP_CONFORMANCE_SCENARIO. This drives the package as a user would: a toolkit over the one
// server, its tools listed, each called, elicitations answered through the public `waitFor`
// (accepting with no fields of its own, so the schema's defaults fill the content). A server
// that asks for OAuth gets the entry's `auth` (a redirect URL, this client's Client ID Metadata
// Document URL, the pre-registered client the suite passes in MCP_CONFORMANCE_CONTEXT, or the
// machine-to-machine grant its context calls for), and
// its sign-in Request is answered as a browser would: the authorization URL followed with
// fetch (redirect: "manual") and the Location it sends us to handed back.
import { createToolkit } from "../../pkg/node.mjs"

const url = process.argv.at(-1)
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "(none)"
if (!url || !/^https?:\/\//.test(url)) {
  console.error(`usage: client.mjs <server-url> (got ${url ?? "nothing"})`)
  process.exit(2)
}

// What the suite hands a scenario: tool arguments, a pre-registered client, grant material.
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}")
// Arguments a scenario's tools need: the ones the scenario hands over in its context
// (`toolCalls`), then these, then a sample of each required property
// of the tool's schema. Null arguments are left out: the toolkit checks arguments against the
// schema (a null boolean is invalid), and a left-out argument is the same case for the suite's
// header checks ("null or not provided").
const ARGUMENTS = { add_numbers: { a: 2, b: 3 } }
for (const call of context.toolCalls ?? []) {
  ARGUMENTS[call.name] = Object.fromEntries(Object.entries(call.arguments ?? {}).filter(([, v]) => v !== null))
}
// Scenarios whose server lists tools but answers no tools/call (json-schema-ref-no-deref only
// checks that listing does not fetch a network `$ref`).
const LIST_ONLY = new Set(["json-schema-ref-no-deref"])
const SAMPLES = { string: "sample", integer: 1, number: 1, boolean: true, object: {}, array: [] }
function sampled(schema) {
  const args = {}
  for (const name of schema?.required ?? []) {
    const type = schema.properties?.[name]?.type
    args[name] = SAMPLES[type] ?? "sample"
  }
  return args
}

// The OAuth the scenario's context calls for (a pre-registered client's id and secret, a
// machine-to-machine grant).
const auth = {
  redirectUrl: "http://localhost:3000/callback",
  clientName: "toolnexus-wasm conformance client",
  // The suite's authorization servers that take Client ID Metadata Documents expect this one.
  clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
  ...(context.client_id && { clientId: context.client_id }),
  ...(context.client_secret && { clientSecret: context.client_secret }),
  ...machineToMachine(scenario, context),
}

/**
 * The grant without a person a scenario's context calls for, as a user would configure it:
 * client credentials with a private key (PKCS#8 PEM) or a secret, a workload identity JWT
 * (`jwt_bearer` with `assertion`), an enterprise ID token exchanged at the identity provider
 * (`jwt_bearer` with `idToken` and `idp`), and DPoP-bound tokens for the DPoP scenarios.
 */
function machineToMachine(scenario, context) {
  if (context.private_key_pem) {
    return { grant: "client_credentials", privateKey: context.private_key_pem, signingAlgorithm: context.signing_algorithm }
  }
  if (scenario.startsWith("auth/client-credentials")) return { grant: "client_credentials" }
  if (context.valid_jwt) return { grant: "jwt_bearer", assertion: context.valid_jwt }
  if (context.idp_id_token) {
    return {
      grant: "jwt_bearer",
      idToken: context.idp_id_token,
      idp: { tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id },
    }
  }
  if (scenario.startsWith("auth/dpop")) return { dpop: true }
  return {}
}

/** The sign-in a person would do: follow the authorization URL, return where it redirects. */
async function signIn(request) {
  const response = await fetch(request.url, { redirect: "manual" })
  const location = response.headers.get("location")
  if (!location) return { id: request.id, ok: false, reason: `the authorization endpoint answered HTTP ${response.status}` }
  return { id: request.id, ok: true, data: { url: new URL(location, request.url).href } }
}

const toolkit = await createToolkit({
  builtins: false,
  mcpConfig: { mcpServers: { conformance: { url, timeout: 20_000, auth } } },
  waitFor: async (request) => {
    console.log(`[${scenario}] waitFor ${request.kind}: ${request.prompt}`)
    if (request.kind === "authorization" && request.data?.state) return signIn(request)
    return { id: request.id, ok: true, data: {} }
  },
})
let failed = false
try {
  const status = toolkit.mcpStatus().conformance
  if (status !== "connected") {
    console.error(`[${scenario}] server ${status}: ${toolkit.mcpErrors().conformance ?? ""}`)
    failed = true
  }
  const tools = LIST_ONLY.has(scenario) ? [] : toolkit.tools()
  for (const tool of tools) {
    const original = tool.name.replace(/^conformance_/, "")
    let args = ARGUMENTS[original] ?? sampled(tool.inputSchema)
    // json-schema-2020-12-preservation: the echo tool gets the other tool's schema as this
    // client holds it.
    if (original === "json_schema_echo") {
      args = { schema: tools.find((t) => t.name !== tool.name)?.inputSchema ?? {} }
    }
    const result = await toolkit.execute(tool.name, args)
    console.log(`[${scenario}] ${tool.name} → ${JSON.stringify(result)}`)
    if (result.isError) failed = true
  }
} finally {
  await toolkit.close()
}
process.exit(failed ? 1 : 0)
