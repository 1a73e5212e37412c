// WebCrypto (`crypto.subtle`: Node 20+, Deno, browsers) for the machine-to-machine OAuth grants of
// remote MCP servers: a private key imported for signing, a DPoP key made, a JWS signing input
// signed. The module's `WebCryptoSigner` (src/js/mcp_sign.rs) calls these; no cryptography is
// compiled into the module. A failure names the WebCrypto error, never the key.

/** JWS `alg` → WebCrypto's import and sign parameters. ECDSA signs as `r || s`, JWS's form. */
const ALGORITHMS = {
  ES256: [{ name: "ECDSA", namedCurve: "P-256" }, { name: "ECDSA", hash: "SHA-256" }],
  ES384: [{ name: "ECDSA", namedCurve: "P-384" }, { name: "ECDSA", hash: "SHA-384" }],
  RS256: [{ name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, { name: "RSASSA-PKCS1-v1_5" }],
  PS256: [{ name: "RSA-PSS", hash: "SHA-256" }, { name: "RSA-PSS", saltLength: 32 }],
}

function subtle() {
  const found = globalThis.crypto?.subtle
  if (!found) throw new Error("this runtime has no WebCrypto (crypto.subtle)")
  return found
}

function algorithm(alg) {
  const found = ALGORITHMS[alg]
  if (!found) throw new Error(`unsupported signing algorithm ${alg}`)
  return found
}

/** A WebCrypto error as `Name: message` (its messages describe the failure, not the key). */
function reason(error) {
  const name = error?.name && error.name !== "Error" ? `${error.name}: ` : ""
  return `${name}${String(error?.message ?? error).slice(0, 200)}`
}

/**
 * Imports `key` (a JWK object for `"jwk"`, PKCS#8 DER bytes for `"pkcs8"`) to sign with `alg`.
 * @param {"jwk" | "pkcs8"} format
 * @param {JsonWebKey | Uint8Array} key
 * @param {string} alg
 * @returns {Promise<CryptoKey>}
 */
export async function importSigningKey(format, key, alg) {
  const [params] = algorithm(alg)
  try {
    return await subtle().importKey(format, key, params, false, ["sign"])
  } catch (error) {
    throw new Error(reason(error))
  }
}

/**
 * A new key pair for `alg` (a DPoP key): the private key, not extractable, and the public JWK's
 * JSON text.
 * @param {string} alg
 * @returns {Promise<[CryptoKey, string]>}
 */
export async function generateSigningKey(alg) {
  const [params] = algorithm(alg)
  const made = { ...params }
  if (params.name !== "ECDSA") Object.assign(made, { modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) })
  try {
    const pair = await subtle().generateKey(made, false, ["sign", "verify"])
    const jwk = await subtle().exportKey("jwk", pair.publicKey)
    return [pair.privateKey, JSON.stringify(jwk)]
  } catch (error) {
    throw new Error(reason(error))
  }
}

/**
 * The JWS signature of `input` with `key`.
 * @param {CryptoKey} key
 * @param {string} alg
 * @param {Uint8Array} input
 * @returns {Promise<Uint8Array>}
 */
export async function signJws(key, alg, input) {
  const [, params] = algorithm(alg)
  try {
    return new Uint8Array(await subtle().sign(params, key, input))
  } catch (error) {
    throw new Error(reason(error))
  }
}
