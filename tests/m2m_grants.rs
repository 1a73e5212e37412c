//! The machine-to-machine grants (`core::mcp::m2m`) against a scripted token endpoint: the
//! requests each grant sends, every JWT's signature checked with the key's public half through
//! `ring` (independently of how it was made), DPoP proofs and the nonce retry, and bad input
//! (refusals, garbage, keys that cannot sign, missing credentials) as sentences without secrets.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use base64ct::{Base64, Encoding as _};
use futures_executor::block_on;
use ring::signature::{self, UnparsedPublicKey};
use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::core::host::{
    ByteStream, Clock, HeadedResponse, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture,
};
use toolnexus::core::json::value::Value;
use toolnexus::core::mcp::auth::discovery::Metadata;
use toolnexus::core::mcp::auth::fetch::Exchange;
use toolnexus::core::mcp::m2m::config::M2mAuth;
use toolnexus::core::mcp::m2m::dpop::Dpop;
use toolnexus::core::mcp::m2m::flow::{obtain, AuthServer};
use toolnexus::core::mcp::m2m::sign::{Alg, HostKey, KeySource, Signer};
use toolnexus::json;

use crate::ring_signer::{b64, RingSigner};

const EC_PEM: &str = include_str!("m2m_keys/ec-p256.pem");
const EC_JWK: &str = include_str!("m2m_keys/ec-p256.jwk.json");
const RSA_PEM: &str = include_str!("m2m_keys/rsa-2048.pem");
const RSA_PUBLIC: &[u8] = include_bytes!("m2m_keys/rsa-2048.pub.der");

/// A signer whose keys never sign (a host whose WebCrypto refuses).
struct BrokenSigner;

impl Signer for BrokenSigner {
    fn import(&self, _: &KeySource, alg: Alg) -> LocalBoxFuture<'static, Result<HostKey, String>> {
        Box::pin(async move {
            Ok(HostKey {
                alg,
                handle: Rc::new(()),
            })
        })
    }
    fn generate(&self, _: Alg) -> LocalBoxFuture<'static, Result<(HostKey, Value), String>> {
        Box::pin(async { Err("OperationError".to_owned()) })
    }
    fn sign(&self, _: &HostKey, _: &[u8]) -> LocalBoxFuture<'static, Result<Vec<u8>, String>> {
        Box::pin(async { Err("OperationError".to_owned()) })
    }
}

// ---- a scripted token endpoint ----

#[derive(Clone, Debug)]
struct Seen {
    url: String,
    headers: Vec<(String, String)>,
    form: Vec<(String, String)>,
}

impl Seen {
    fn field(&self, name: &str) -> Option<&str> {
        self.form
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

type Answer = (u16, Vec<(String, String)>, String);

struct TokenEndpoint {
    answers: RefCell<Vec<Answer>>,
    seen: RefCell<Vec<Seen>>,
}

impl TokenEndpoint {
    fn new(answers: Vec<Answer>) -> Rc<TokenEndpoint> {
        Rc::new(TokenEndpoint {
            answers: RefCell::new(answers),
            seen: RefCell::new(Vec::new()),
        })
    }
    fn seen(&self) -> Vec<Seen> {
        self.seen.borrow().clone()
    }
}

fn ok_token(token: &str) -> Answer {
    (
        200,
        vec![],
        format!(r#"{{"access_token":"{token}","token_type":"Bearer","expires_in":3600}}"#),
    )
}

fn decode_form(body: &str) -> Vec<(String, String)> {
    body.split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (unescape(k), unescape(v))
        })
        .collect()
}

fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes.get(i) {
            Some(b'+') => out.push(b' '),
            Some(b'%') => {
                let hex = text.get(i + 1..i + 3).unwrap_or("00");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(0));
                i += 2;
            }
            Some(b) => out.push(*b),
            None => {}
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_default()
}

struct Once(Option<Vec<u8>>);
impl ByteStream for Once {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Option<Result<Vec<u8>, HttpError>>> {
        let chunk = self.0.take().map(Ok);
        Box::pin(async move { chunk })
    }
}

impl Http for TokenEndpoint {
    fn send(&self, _: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        Box::pin(async { Err(HttpError::Network("headers expected".into())) })
    }
    fn open_with_headers(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HeadedResponse, HttpError>> {
        self.seen.borrow_mut().push(Seen {
            url: request.url.to_string(),
            headers: request.headers.to_vec(),
            form: decode_form(request.body.as_deref().unwrap_or("")),
        });
        let mut answers = self.answers.borrow_mut();
        let answer = (!answers.is_empty()).then(|| answers.remove(0));
        Box::pin(async move {
            let (status, headers, body) =
                answer.ok_or_else(|| HttpError::Network("connection refused".into()))?;
            Ok(HeadedResponse {
                status,
                headers,
                body: Box::new(Once(Some(body.into_bytes()))),
            })
        })
    }
}

struct Fixed;
impl Clock for Fixed {
    fn now_ms(&self) -> f64 {
        1_800_000_000_000.0
    }
    fn sleep(&self, _: f64) -> LocalBoxFuture<'static, ()> {
        Box::pin(async {})
    }
}

fn server(methods: &[&str]) -> Metadata {
    Metadata(json!({
        "issuer": "https://as.example",
        "token_endpoint": "https://as.example/token",
        "token_endpoint_auth_methods_supported": methods,
    }))
}

const RESOURCE: &str = "https://rs.example/mcp";

fn run(
    auth: Value,
    metadata: &Metadata,
    endpoint: &Rc<TokenEndpoint>,
    signer: &dyn Signer,
) -> Result<String, String> {
    let auth = M2mAuth::read(&auth)?.ok_or("not a machine-to-machine grant")?;
    let exchange = Exchange {
        http: endpoint.clone(),
        clock: Rc::new(Fixed),
        timeout_ms: 5_000.0,
        dpop: None,
    };
    let server = AuthServer {
        issuer: "https://as.example",
        metadata,
    };
    block_on(obtain(
        &auth,
        server,
        RESOURCE,
        None,
        &exchange,
        Some(signer),
    ))
    .map(|(tokens, _)| tokens.access_token)
}

// ---- JWT checks, independent of the core ----

struct Jwt {
    header: Value,
    claims: Value,
    input: String,
    signature: Vec<u8>,
}

fn split(jwt: &str) -> Jwt {
    let parts: Vec<&str> = jwt.split('.').collect();
    assert_eq!(parts.len(), 3, "a compact JWS has three parts: {jwt}");
    let part = |i: usize| b64(parts.get(i).copied().unwrap_or("")).unwrap_or_default();
    let json = |i: usize| {
        let value: serde_json::Value = serde_json::from_slice(&part(i)).unwrap_or_default();
        json!(value)
    };
    Jwt {
        header: json(0),
        claims: json(1),
        input: format!("{}.{}", parts[0], parts[1]),
        signature: part(2),
    }
}

fn ec_public(jwk: &Value) -> Vec<u8> {
    let part = |k: &str| b64(jwk.get(k).and_then(Value::as_str).unwrap_or("")).unwrap_or_default();
    let mut public = vec![4u8];
    public.extend(part("x"));
    public.extend(part("y"));
    public
}

fn verify_es256(jwt: &Jwt, public: &[u8]) -> bool {
    UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, public)
        .verify(jwt.input.as_bytes(), &jwt.signature)
        .is_ok()
}

fn ec_jwk() -> Value {
    let value: serde_json::Value = serde_json::from_str(EC_JWK).unwrap_or_default();
    json!(value)
}

// ---- the tests ----

#[test]
fn private_key_jwt_assertion_verifies_with_the_public_key() {
    let endpoint = TokenEndpoint::new(vec![ok_token("cc-1")]);
    let auth = json!({"grant": "client_credentials", "clientId": "app-1", "privateKey": ec_jwk()});
    let token = run(auth, &server(&["private_key_jwt"]), &endpoint, &RingSigner);
    assert_eq!(token.as_deref(), Ok("cc-1"));
    let seen = endpoint.seen();
    assert_eq!(seen.len(), 1);
    let request = &seen[0];
    assert_eq!(request.url, "https://as.example/token");
    assert_eq!(request.field("grant_type"), Some("client_credentials"));
    assert_eq!(request.field("resource"), Some(RESOURCE));
    assert_eq!(
        request.field("client_assertion_type"),
        Some("urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
    );
    assert_eq!(request.header("authorization"), None);
    let jwt = split(request.field("client_assertion").unwrap_or(""));
    assert_eq!(jwt.header["alg"], "ES256");
    assert!(
        verify_es256(&jwt, &ec_public(&ec_jwk())),
        "the assertion's signature verifies"
    );
    let mut tampered = split(request.field("client_assertion").unwrap_or(""));
    tampered.input.push('x');
    assert!(
        !verify_es256(&tampered, &ec_public(&ec_jwk())),
        "and a changed input does not"
    );
    assert_eq!(jwt.claims["iss"], "app-1");
    assert_eq!(jwt.claims["sub"], "app-1");
    assert_eq!(jwt.claims["aud"], "https://as.example");
    assert_eq!(jwt.claims["iat"], 1_800_000_000);
    assert_eq!(jwt.claims["exp"], 1_800_000_300);
    assert!(jwt.claims["jti"].as_str().is_some_and(|j| j.len() >= 16));
}

#[test]
fn a_pkcs8_pem_key_signs_es256_and_rs256() {
    let endpoint = TokenEndpoint::new(vec![ok_token("t1")]);
    let auth = json!({"grant": "client_credentials", "clientId": "app", "privateKey": EC_PEM});
    assert_eq!(
        run(auth, &server(&[]), &endpoint, &RingSigner).as_deref(),
        Ok("t1")
    );
    let jwt = split(endpoint.seen()[0].field("client_assertion").unwrap_or(""));
    assert_eq!(
        jwt.header["alg"], "ES256",
        "the algorithm read from the key's DER"
    );
    assert!(verify_es256(&jwt, &ec_public(&ec_jwk())));

    let endpoint = TokenEndpoint::new(vec![ok_token("t2")]);
    let auth = json!({"grant": "client_credentials", "clientId": "app", "privateKey": RSA_PEM});
    assert_eq!(
        run(auth, &server(&[]), &endpoint, &RingSigner).as_deref(),
        Ok("t2")
    );
    let jwt = split(endpoint.seen()[0].field("client_assertion").unwrap_or(""));
    assert_eq!(jwt.header["alg"], "RS256");
    let public = UnparsedPublicKey::new(&signature::RSA_PKCS1_2048_8192_SHA256, RSA_PUBLIC);
    assert!(public.verify(jwt.input.as_bytes(), &jwt.signature).is_ok());
}

#[test]
fn client_secret_basic_and_post() {
    let endpoint = TokenEndpoint::new(vec![ok_token("b")]);
    let auth = json!({"grant": "client_credentials", "clientId": "app id", "clientSecret": "s3cret:x", "scope": "read write"});
    assert_eq!(
        run(
            auth.clone(),
            &server(&["client_secret_basic"]),
            &endpoint,
            &RingSigner
        )
        .as_deref(),
        Ok("b")
    );
    let request = &endpoint.seen()[0];
    let basic = request
        .header("authorization")
        .unwrap_or("")
        .trim_start_matches("Basic ");
    let pair = String::from_utf8(Base64::decode_vec(basic).unwrap_or_default()).unwrap_or_default();
    assert_eq!(
        pair, "app+id:s3cret%3Ax",
        "RFC 6749 §2.3.1: each form-encoded"
    );
    assert_eq!(request.field("client_secret"), None);
    assert_eq!(request.field("scope"), Some("read write"));

    let endpoint = TokenEndpoint::new(vec![ok_token("p")]);
    assert_eq!(
        run(
            auth,
            &server(&["client_secret_post"]),
            &endpoint,
            &RingSigner
        )
        .as_deref(),
        Ok("p")
    );
    let request = &endpoint.seen()[0];
    assert_eq!(request.header("authorization"), None);
    assert_eq!(request.field("client_id"), Some("app id"));
    assert_eq!(request.field("client_secret"), Some("s3cret:x"));
}

#[test]
fn workload_identity_jwt_bearer() {
    let endpoint = TokenEndpoint::new(vec![ok_token("wif")]);
    let auth = json!({"grant": "jwt_bearer", "clientId": "workload", "assertion": "aa.bb.cc"});
    assert_eq!(
        run(auth, &server(&["none"]), &endpoint, &RingSigner).as_deref(),
        Ok("wif")
    );
    let request = &endpoint.seen()[0];
    assert_eq!(
        request.field("grant_type"),
        Some("urn:ietf:params:oauth:grant-type:jwt-bearer")
    );
    assert_eq!(request.field("assertion"), Some("aa.bb.cc"));
    assert_eq!(request.field("client_id"), Some("workload"));
}

#[test]
fn enterprise_id_token_exchanged_for_an_id_jag_then_traded() {
    let endpoint = TokenEndpoint::new(vec![
        (200, vec![], r#"{"access_token":"the.id.jag","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag","token_type":"N_A"}"#.into()),
        ok_token("final"),
    ]);
    let auth = json!({"grant": "jwt_bearer", "clientId": "xaa", "clientSecret": "xaa-secret",
        "idToken": "id.token.jwt", "idp": {"tokenEndpoint": "https://idp.example/token", "clientId": "idp-client"}});
    assert_eq!(
        run(
            auth,
            &server(&["client_secret_basic"]),
            &endpoint,
            &RingSigner
        )
        .as_deref(),
        Ok("final")
    );
    let seen = endpoint.seen();
    assert_eq!(seen.len(), 2);
    let (exchange, bearer) = (&seen[0], &seen[1]);
    assert_eq!(exchange.url, "https://idp.example/token");
    assert_eq!(
        exchange.field("grant_type"),
        Some("urn:ietf:params:oauth:grant-type:token-exchange")
    );
    assert_eq!(exchange.field("subject_token"), Some("id.token.jwt"));
    assert_eq!(
        exchange.field("subject_token_type"),
        Some("urn:ietf:params:oauth:token-type:id_token")
    );
    assert_eq!(
        exchange.field("requested_token_type"),
        Some("urn:ietf:params:oauth:token-type:id-jag")
    );
    assert_eq!(exchange.field("audience"), Some("https://as.example"));
    assert_eq!(exchange.field("resource"), Some(RESOURCE));
    assert_eq!(exchange.field("client_id"), Some("idp-client"));
    assert_eq!(
        exchange.header("authorization"),
        None,
        "the app's AS secret never goes to the IdP"
    );
    assert_eq!(bearer.url, "https://as.example/token");
    assert_eq!(bearer.field("assertion"), Some("the.id.jag"));
    assert!(bearer
        .header("authorization")
        .is_some_and(|h| h.starts_with("Basic ")));
}

#[test]
fn dpop_proofs_verify_with_their_own_public_key() {
    let dpop = block_on(Dpop::generate(&RingSigner)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        dpop.jwk().get("d"),
        None,
        "proofs carry only the public key"
    );
    let first = block_on(dpop.proof(
        &RingSigner,
        "POST",
        "https://as.example/token?x=1#f",
        1_800_000_000,
        None,
    ))
    .unwrap();
    dpop.set_nonce("https://as.example/other", "n-1");
    let second = block_on(dpop.proof(
        &RingSigner,
        "GET",
        "https://as.example/token",
        1_800_000_001,
        Some("aGFzaA"),
    ))
    .unwrap();
    let elsewhere = block_on(dpop.proof(
        &RingSigner,
        "POST",
        "https://rs.example/mcp",
        1_800_000_002,
        None,
    ))
    .unwrap();
    let (first, second, elsewhere) = (split(&first), split(&second), split(&elsewhere));
    for proof in [&first, &second, &elsewhere] {
        assert_eq!(proof.header["typ"], "dpop+jwt");
        assert_eq!(proof.header["alg"], "ES256");
        assert_eq!(proof.header["jwk"], *dpop.jwk());
        assert!(
            verify_es256(proof, &ec_public(&proof.header["jwk"])),
            "verifies with its own jwk"
        );
    }
    assert_eq!(first.claims["htm"], "POST");
    assert_eq!(
        first.claims["htu"], "https://as.example/token",
        "no query or fragment"
    );
    assert_eq!(first.claims["iat"], 1_800_000_000);
    assert_eq!(first.claims.get("nonce"), None);
    assert_eq!(first.claims.get("ath"), None);
    assert_eq!(second.claims["htm"], "GET");
    assert_eq!(
        second.claims["nonce"], "n-1",
        "the nonce of the same origin"
    );
    assert_eq!(second.claims["ath"], "aGFzaA");
    assert_eq!(
        elsewhere.claims.get("nonce"),
        None,
        "another origin's nonce is not sent"
    );
    assert_ne!(
        first.claims["jti"], second.claims["jti"],
        "a fresh proof each time"
    );
    let broken = block_on(Dpop::generate(&BrokenSigner)).unwrap_err();
    assert_eq!(broken, "could not make a DPoP key: OperationError");
}

#[test]
fn refusals_and_garbage_are_sentences_without_secrets() {
    let auth =
        json!({"grant": "client_credentials", "clientId": "app", "clientSecret": "hunter2-secret"});
    let cases: Vec<(Answer, &str)> = vec![
        (
            (
                500,
                vec![],
                "<html>Internal Server Error hunter2-secret</html>".into(),
            ),
            "answered HTTP 500",
        ),
        ((200, vec![], "not json".into()), "is not a JSON object"),
        (
            (200, vec![], r#"{"token_type":"Bearer"}"#.into()),
            "has no access_token",
        ),
        (
            (
                401,
                vec![],
                r#"{"error":"invalid_client","error_description":"bad secret hunter2-secret"}"#
                    .into(),
            ),
            "invalid_client (bad secret [redacted])",
        ),
    ];
    for (answer, expected) in cases {
        let endpoint = TokenEndpoint::new(vec![answer]);
        let error = run(auth.clone(), &server(&[]), &endpoint, &RingSigner).unwrap_err();
        assert!(error.contains(expected), "{error}");
        assert!(!error.contains("hunter2"), "{error}");
    }
    let endpoint = TokenEndpoint::new(vec![]);
    let error = run(auth, &server(&[]), &endpoint, &RingSigner).unwrap_err();
    assert!(
        error.contains("the token request failed") && error.contains("connection refused"),
        "{error}"
    );
}

#[test]
fn keys_that_cannot_sign() {
    let endpoint = TokenEndpoint::new(vec![ok_token("never")]);
    let mut wrong = ec_jwk();
    if let Value::Object(map) = &mut wrong {
        map.insert("d".into(), json!("AAAA"));
    }
    let auth = json!({"grant": "client_credentials", "clientId": "app", "privateKey": wrong});
    let error = run(auth, &server(&[]), &endpoint, &RingSigner).unwrap_err();
    assert!(
        error.contains("\"auth.privateKey\" cannot sign ES256"),
        "{error}"
    );
    assert!(!error.contains("AAAA"), "{error}");

    let auth = json!({"grant": "client_credentials", "clientId": "app", "privateKey": ec_jwk()});
    let error = run(auth, &server(&[]), &endpoint, &BrokenSigner).unwrap_err();
    assert_eq!(error, "could not sign a ES256 JWT: OperationError");
    assert!(
        endpoint.seen().is_empty(),
        "nothing is sent without an assertion"
    );

    let mut public = ec_jwk();
    if let Value::Object(map) = &mut public {
        map.remove("d");
    }
    let auth = json!({"grant": "client_credentials", "clientId": "app", "privateKey": public});
    let error = run(auth, &server(&[]), &endpoint, &RingSigner).unwrap_err();
    assert!(error.contains("is a public JWK"), "{error}");

    let auth = json!({"grant": "client_credentials", "clientId": "app", "privateKey": {"kty": "oct", "d": "x", "k": "c2VjcmV0"}});
    let error = run(auth, &server(&[]), &endpoint, &RingSigner).unwrap_err();
    assert!(error.contains("neither an EC"), "{error}");
    assert!(!error.contains("c2VjcmV0"), "{error}");
}

#[test]
fn missing_credentials_name_the_key() {
    let cases = [
        (
            json!({"grant": "client_credentials", "clientSecret": "x"}),
            "needs \"auth.clientId\"",
        ),
        (
            json!({"grant": "client_credentials", "clientId": "a"}),
            "needs \"auth.clientSecret\" or \"auth.privateKey\"",
        ),
        (
            json!({"grant": "client_credentials", "clientId": "a", "clientSecret": "s", "tokenEndpointAuthMethod": "private_key_jwt"}),
            "private_key_jwt needs \"auth.privateKey\"",
        ),
        (json!({"grant": "jwt_bearer"}), "needs \"auth.assertion\""),
        (
            json!({"grant": "jwt_bearer", "idToken": "t"}),
            "needs \"auth.idp\"",
        ),
        (
            json!({"grant": "jwt_bearer", "idToken": "t", "idp": {"clientId": "c"}}),
            "needs \"tokenEndpoint\"",
        ),
        (json!({"grant": "password"}), "\"auth.grant\" must be"),
        (
            json!({"grant": "client_credentials", "clientId": "a", "clientSecret": "s", "tokenEndpointAuthMethod": "tls"}),
            "auth.tokenEndpointAuthMethod must be one of",
        ),
        (
            json!({"grant": "client_credentials", "clientId": "a", "privateKey": 7}),
            "must be a JWK object or a PKCS#8 PEM string",
        ),
        (
            json!({"grant": "client_credentials", "clientId": "a", "privateKey": EC_PEM, "signingAlgorithm": "HS256"}),
            "must be ES256, ES384, RS256 or PS256",
        ),
    ];
    for (auth, expected) in cases {
        let error = M2mAuth::read(&auth).unwrap_err();
        assert!(error.contains(expected), "{auth:?}: {error}");
    }
    assert_eq!(
        M2mAuth::read(&json!({"redirectUrl": "http://x/cb"})),
        Ok(None)
    );
}

#[test]
fn dpop_at_the_token_endpoint_retries_once_with_the_nonce() {
    use toolnexus::core::mcp::auth::config::parse_auth;
    use toolnexus::core::mcp::m2m::dpop::DpopBinding;
    let nonce = || {
        (
            400,
            vec![("dpop-nonce".to_owned(), "n-1".to_owned())],
            r#"{"error":"use_dpop_nonce"}"#.to_owned(),
        )
    };
    let bound = (
        200,
        vec![],
        r#"{"access_token":"bound","token_type":"DPoP"}"#.to_owned(),
    );
    for (answers, expected) in [
        (vec![nonce(), bound], Ok("bound")),
        (vec![nonce(), nonce(), nonce()], Err(())),
    ] {
        let endpoint = TokenEndpoint::new(answers);
        let block = json!({"grant": "client_credentials", "clientId": "app", "clientSecret": "s3cret", "dpop": true});
        let config = parse_auth(&block).unwrap();
        let signer: Rc<dyn Signer> = Rc::new(RingSigner);
        let exchange = Exchange {
            http: endpoint.clone(),
            clock: Rc::new(Fixed),
            timeout_ms: 5_000.0,
            dpop: DpopBinding::of(&config, Some(signer), Rc::new(Fixed)),
        };
        assert!(exchange.dpop.is_some());
        let auth = M2mAuth::from_config(&config).unwrap().unwrap();
        let metadata = server(&[]);
        let server = AuthServer {
            issuer: "https://as.example",
            metadata: &metadata,
        };
        let got = block_on(obtain(
            &auth,
            server,
            RESOURCE,
            None,
            &exchange,
            Some(&RingSigner),
        ));
        let seen = endpoint.seen();
        assert_eq!(seen.len(), 2, "one retry with the nonce, never more");
        let proofs: Vec<Jwt> = seen
            .iter()
            .map(|s| split(s.header("dpop").unwrap_or("")))
            .collect();
        for proof in &proofs {
            assert!(verify_es256(proof, &ec_public(&proof.header["jwk"])));
            assert_eq!(proof.claims["htu"], "https://as.example/token");
            assert_eq!(proof.claims["htm"], "POST");
        }
        assert_eq!(proofs[0].claims.get("nonce"), None);
        assert_eq!(proofs[1].claims["nonce"], "n-1");
        assert_eq!(proofs[0].header["jwk"], proofs[1].header["jwk"], "one key");
        match expected {
            Ok(token) => {
                let (tokens, _) = got.unwrap();
                assert_eq!(
                    (tokens.access_token.as_str(), tokens.token_type.as_str()),
                    (token, "DPoP")
                );
            }
            Err(()) => assert!(got.unwrap_err().contains("use_dpop_nonce")),
        }
    }
    let config =
        parse_auth(&json!({"grant": "client_credentials", "clientId": "a", "clientSecret": "s"}))
            .unwrap();
    let signer: Rc<dyn Signer> = Rc::new(RingSigner);
    assert!(
        DpopBinding::of(&config, Some(signer), Rc::new(Fixed)).is_none(),
        "only with dpop: true"
    );
}
