// The one list of the official MCP conformance suite's client scenarios this client is known to
// fail, each with the reason. tests/js/mcp-conformance.test.mjs fails when a scenario listed
// here passes (take it off the list) and when one not listed here fails. Both lists are empty:
// every client scenario of both releases passes.

/** @type {Record<string, string>} scenario name → why it fails (the latest release, 0.1.16) */
export const EXPECTED_FAILURES = {}

/**
 * The same for the suite's next release (0.2.0-alpha.12) at the 2026-07-28 wire: the scenarios
 * that revision requires and the client extensions the suite reports beside them.
 * @type {Record<string, string>}
 */
export const EXPECTED_FAILURES_2026 = {}
