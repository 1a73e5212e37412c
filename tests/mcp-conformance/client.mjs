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

// Arguments a scenario's tools need; a tool not named here is called with none.
const ARGUMENTS = { add_numbers: { a: 2, b: 3 } }

// What the suite hands a scenario (a pre-registered client's id and secret).
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}")
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
  for (const tool of toolkit.tools()) {
    const original = tool.name.replace(/^conformance_/, "")
    const result = await toolkit.execute(tool.name, ARGUMENTS[original] ?? {})
    console.log(`[${scenario}] ${tool.name} → ${JSON.stringify(result)}`)
    if (result.isError) failed = true
  }
} finally {
  await toolkit.close()
}
process.exit(failed ? 1 : 0)
