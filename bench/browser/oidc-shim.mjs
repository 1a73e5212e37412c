// The browser page's stand-in for @vercel/oidc (a CommonJS package an import map cannot load).
// Only the AI Gateway provider calls it, and the bench never uses that provider.
export function getContext() {
  return {}
}
export async function getVercelOidcToken() {
  throw new Error("@vercel/oidc is not available in the bench page")
}
