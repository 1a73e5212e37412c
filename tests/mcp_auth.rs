//! OAuth for remote MCP servers against a scripted world (tests/mcp_common/oauth.rs): the
//! sign-in through `waitFor` and left pending then resumed, the token carried and refreshed,
//! and every bad input ending as a failed server with a clear reason and no secret in it,
//! while the toolkit's other servers load.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::mcp_common;

use mcp_common::oauth::*;
use mcp_common::*;
use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::core::host::TokenStore;
use toolnexus::core::mcp::auth::store::MemoryTokenStore;
use toolnexus::core::mcp::{load, McpSource, Status};
use toolnexus::core::types::Request;
use toolnexus::{core::json::value::Value, json};

/// Loads server "main" of the world (with `auth`), plus a plain server "other" that needs none.
fn load_world(
    world: &Rc<OAuthWorld>,
    auth: Value,
    wait_for: Option<Rc<ScriptedWaitFor>>,
    store: Rc<dyn TokenStore>,
) -> (McpSource, Rc<VirtualClock>) {
    let clock = VirtualClock::new();
    let other = FakeMcp::new(Mode::Json);
    let entries = toolnexus::core::mcp::config::parse_config(&json!({"mcpServers": {
        "main": {"url": SERVER, "auth": auth},
        "other": {"url": "http://fake/other"},
    }}))
    .unwrap();
    struct Both(WorldHttp, Router);
    impl toolnexus::core::host::Http for Both {
        fn send(
            &self,
            r: &toolnexus::core::host::HttpRequest,
        ) -> toolnexus::core::host::LocalBoxFuture<
            'static,
            Result<toolnexus::core::host::HttpResponse, toolnexus::core::host::HttpError>,
        > {
            self.0.send(r)
        }
        fn open_with_headers(
            &self,
            r: &toolnexus::core::host::HttpRequest,
        ) -> toolnexus::core::host::LocalBoxFuture<
            'static,
            Result<toolnexus::core::host::HeadedResponse, toolnexus::core::host::HttpError>,
        > {
            if r.url.ends_with("/other") {
                self.1.open_with_headers(r)
            } else {
                self.0.open_with_headers(r)
            }
        }
    }
    let http = Both(WorldHttp(world.clone()), Router(vec![("other", other)]));
    let mut host = host(Some(Rc::new(http)), clock.clone());
    host.token_store = Some(store);
    if let Some(wait_for) = wait_for {
        host.wait_for = Some(wait_for);
    }
    let source = run(&clock, async move { load(&entries, &host).await });
    (source, clock)
}

fn auth() -> Value {
    json!({"redirectUrl": "http://localhost/cb"})
}

/// A waitFor that signs in: the redirect carries the code, the state and the right `iss`.
fn signs_in() -> Rc<ScriptedWaitFor> {
    ScriptedWaitFor::new(|request| {
        Ok(answer_with(
            request,
            &redirect_for(request, &format!("&code={CODE}&iss={ISSUER}")),
        ))
    })
}

fn memory() -> Rc<dyn TokenStore> {
    Rc::new(MemoryTokenStore::default())
}

/// No token, verifier, code or secret in `text`.
fn no_secret(text: &str, world: &OAuthWorld) {
    for secret in [SECRET, CODE, "access-1", "refresh-1"] {
        assert!(!text.contains(secret), "{secret} leaked into: {text}");
    }
    for hit in world.hits_to("http://as/token") {
        if let Some(verifier) = hit.field("code_verifier") {
            assert!(
                !text.contains(&verifier),
                "the verifier leaked into: {text}"
            );
        }
    }
}

#[test]
fn a_401_is_discovered_registered_signed_in_and_the_token_carried() {
    let world = OAuthWorld::new(FakeMcp::new(Mode::Json));
    let wait_for = signs_in();
    let (source, clock) = load_world(&world, auth(), Some(wait_for.clone()), memory());
    assert_eq!(
        source.servers[0].status,
        Status::Connected,
        "{:?}",
        source.servers[0].error
    );
    assert_eq!(source.servers[1].status, Status::Connected);
    // The one host step: a §10 authorization Request with no secret in it.
    let seen = wait_for.seen.borrow().clone();
    assert_eq!(seen.len(), 1);
    let request = &seen[0];
    assert_eq!(request.kind, "authorization");
    let url =
        toolnexus::core::mcp::auth::url::HttpUrl::parse(request.url.as_deref().unwrap()).unwrap();
    assert_eq!(url.origin(), "http://as");
    assert_eq!(url.path, "/authorize");
    assert_eq!(url.param("response_type").as_deref(), Some("code"));
    assert_eq!(url.param("client_id").as_deref(), Some("registered-client"));
    assert_eq!(url.param("code_challenge_method").as_deref(), Some("S256"));
    assert_eq!(url.param("resource").as_deref(), Some(SERVER));
    assert_eq!(url.param("scope").as_deref(), Some("read"));
    assert_eq!(request.data.as_ref().unwrap()["issuer"], ISSUER);
    // The token request: the code with its PKCE verifier, the resource, the client's secret.
    let token = world.hits_to("http://as/token");
    assert_eq!(token.len(), 1);
    let verifier = token[0].field("code_verifier").unwrap();
    assert_eq!(
        toolnexus::core::mcp::auth::pkce::challenge(&verifier),
        url.param("code_challenge").unwrap()
    );
    assert_eq!(token[0].field("resource").as_deref(), Some(SERVER));
    assert_eq!(
        token[0].field("redirect_uri").as_deref(),
        Some("http://localhost/cb")
    );
    assert!(token[0]
        .header("authorization")
        .unwrap()
        .starts_with("Basic "));
    // Every MCP request after the sign-in carries the token; the tools work.
    let result = call(&clock, &source, "main_echo", json!({"text": "hi"}));
    assert!(!result.is_error, "{result:?}");
    let last = world.mcp.seen.borrow().last().cloned().unwrap();
    assert_eq!(
        last.header("authorization").as_deref(),
        Some("Bearer access-1")
    );
}

#[test]
fn without_wait_for_the_server_is_pending_and_a_resume_connects_it_once() {
    let world = OAuthWorld::new(FakeMcp::new(Mode::Json));
    let store = memory();
    let (source, clock) = load_world(&world, auth(), None, store.clone());
    assert_eq!(source.states()[0].status, Status::Pending);
    assert_eq!(source.states()[1].status, Status::Connected);
    assert_eq!(source.states()[0].error, None);
    let pending: Vec<Request> = source.pending();
    assert_eq!(pending.len(), 1);
    // The flow is plain JSON in the store, under its state.
    let state = pending[0].data.as_ref().unwrap()["state"]
        .as_str()
        .unwrap()
        .to_owned();
    let kept = run(&clock, {
        let store = store.clone();
        let key = toolnexus::core::mcp::auth::store::flow_key(&state);
        async move { store.get(&key).await.unwrap() }
    });
    assert!(kept.unwrap().contains("\"verifier\""));
    // The tools arrive through the watchers (the toolkit adds them).
    let added: Rc<RefCell<Vec<String>>> = Rc::default();
    let seen = added.clone();
    source.on_tools_changed(Rc::new(move |_old, new| {
        seen.borrow_mut()
            .extend(new.iter().map(|t| t.spec().name.clone()));
    }));
    let answer = answer_with(
        &pending[0],
        &redirect_for(&pending[0], &format!("&code={CODE}&iss={ISSUER}")),
    );
    let state_after = run(&clock, source.resume(answer.clone())).unwrap();
    assert_eq!(
        state_after.status,
        Status::Connected,
        "{:?}",
        state_after.error
    );
    assert_eq!(source.states()[0].status, Status::Connected);
    assert_eq!(added.borrow().as_slice(), ["main_echo", "main_get_weather"]);
    assert!(source.pending().is_empty());
    // The same answer again: nothing waits for it.
    let again = run(&clock, source.resume(answer)).unwrap_err();
    assert!(again.contains("no MCP server waits"), "{again}");
    // The same redirect handed to the store again: its state was used.
    let replay = run(&clock, {
        let store = store.clone();
        let url = redirect_for(&pending[0], &format!("&code={CODE}"));
        async move {
            toolnexus::core::mcp::auth::flow::check(&store, &url, None)
                .await
                .err()
                .unwrap()
        }
    });
    assert!(replay.contains("no sign-in is waiting"), "{replay}");
    assert_eq!(world.hits_to("http://as/token").len(), 1);
}

#[test]
fn a_second_load_over_the_same_store_uses_the_kept_tokens() {
    let world = OAuthWorld::new(FakeMcp::new(Mode::Json));
    let store = memory();
    let (first, _) = load_world(&world, auth(), Some(signs_in()), store.clone());
    assert_eq!(first.servers[0].status, Status::Connected);
    let wait_for = signs_in();
    let (second, _) = load_world(&world, auth(), Some(wait_for.clone()), store);
    assert_eq!(second.servers[0].status, Status::Connected);
    assert!(wait_for.seen.borrow().is_empty(), "no second sign-in");
    assert_eq!(
        world.hits_to("http://as/register").len(),
        1,
        "the client is kept per issuer"
    );
}

#[test]
fn a_token_about_to_expire_is_refreshed_before_the_request() {
    let world = OAuthWorld::new(FakeMcp::new(Mode::Json));
    world.expires_in.set(30); // within the 60 s margin
    let (source, clock) = load_world(&world, auth(), Some(signs_in()), memory());
    assert_eq!(source.servers[0].status, Status::Connected);
    let result = call(&clock, &source, "main_echo", json!({"text": "hi"}));
    assert!(!result.is_error, "{result:?}");
    let grants: Vec<String> = world
        .hits_to("http://as/token")
        .iter()
        .map(|h| h.field("grant_type").unwrap())
        .collect();
    assert_eq!(grants[0], "authorization_code");
    assert!(
        grants[1..].iter().all(|g| g == "refresh_token") && grants.len() > 1,
        "{grants:?}"
    );
    let last = world.mcp.seen.borrow().last().cloned().unwrap();
    assert_ne!(
        last.header("authorization").as_deref(),
        Some("Bearer access-1")
    );
}

/// Loads with `setup` applied and the sign-in answered by `answer`; the main server must fail
/// with a reason containing `expected`, the other one connect.
fn fails_with(
    setup: impl FnOnce(&OAuthWorld),
    auth: Value,
    answer: fn(&Request) -> Result<Value, String>,
    expected: &str,
) {
    let world = OAuthWorld::new(FakeMcp::new(Mode::Json));
    setup(&world);
    let (source, _) = load_world(&world, auth, Some(ScriptedWaitFor::new(answer)), memory());
    assert_eq!(source.servers[0].status, Status::Failed, "{expected}");
    let why = source.servers[0].error.clone().unwrap();
    assert!(why.contains(expected), "expected \"{expected}\" in: {why}");
    no_secret(&why, &world);
    assert_eq!(
        source.servers[1].status,
        Status::Connected,
        "the other server loads"
    );
}

fn good(request: &Request) -> Result<Value, String> {
    Ok(answer_with(
        request,
        &redirect_for(request, &format!("&code={CODE}&iss={ISSUER}")),
    ))
}

#[test]
fn bad_discovery_fails_the_server_with_its_reason() {
    // No resource_metadata and nothing at the well-known URLs, no legacy metadata either.
    fails_with(
        |w| {
            *w.challenge.borrow_mut() = "Bearer".into();
            *w.resource_doc.borrow_mut() = (404, String::new());
        },
        auth(),
        good,
        "no protected resource metadata",
    );
    // A malformed resource_metadata: said so, then the well-known URL (missing here) tried.
    fails_with(
        |w| {
            *w.challenge.borrow_mut() = r#"Bearer resource_metadata="::not a url""#.into();
            *w.resource_doc.borrow_mut() = (404, String::new());
        },
        auth(),
        good,
        "is not an http(s) URL",
    );
    fails_with(
        |w| *w.resource_doc.borrow_mut() = (200, "<html>nope</html>".into()),
        auth(),
        good,
        "not a JSON object",
    );
    fails_with(
        |w| *w.metadata.borrow_mut() = (200, "{not json".into()),
        auth(),
        good,
        "not a JSON object",
    );
    fails_with(
        |w| {
            *w.metadata.borrow_mut() = (
                200,
                json!({"issuer": "https://attacker.example", "authorization_endpoint": "http://as/authorize", "token_endpoint": "http://as/token"}).to_string(),
            )
        },
        auth(),
        good,
        "names the issuer \"https://attacker.example\"",
    );
    fails_with(
        |w| {
            *w.resource_doc.borrow_mut() = (
                200,
                json!({"resource": "https://evil.example.com/main", "authorization_servers": [ISSUER]}).to_string(),
            )
        },
        auth(),
        good,
        "which is not this server",
    );
    // Metadata for grants without a person (no authorization endpoint, RFC 8414 §2) is read,
    // and the sign-in, which needs one, says so.
    fails_with(
        |w| {
            *w.metadata.borrow_mut() = (
                200,
                json!({"issuer": ISSUER, "token_endpoint": "http://as/token", "registration_endpoint": "http://as/register"}).to_string(),
            )
        },
        auth(),
        good,
        "the authorization server has no authorization_endpoint",
    );
    fails_with(
        |w| {
            *w.metadata.borrow_mut() = (
                200,
                json!({"issuer": ISSUER, "authorization_endpoint": "javascript:alert(1)", "token_endpoint": "http://as/token"}).to_string(),
            )
        },
        auth(),
        good,
        "has no http(s) authorization_endpoint",
    );
}

#[test]
fn a_sign_in_refused_or_tampered_with_fails_the_server() {
    fails_with(
        |_| {},
        auth(),
        |r| {
            Ok(answer_with(
                r,
                &redirect_for(r, "&error=access_denied&error_description=User+said+no"),
            ))
        },
        "refused by the authorization server: access_denied (User said no)",
    );
    fails_with(
        |_| {},
        auth(),
        |r| {
            Ok(answer_with(
                r,
                &format!("http://localhost/cb?code={CODE}&state=someone-else"),
            ))
        },
        "state does not match",
    );
    fails_with(
        |_| {},
        auth(),
        |r| Ok(json!({"id": r.id, "ok": false, "reason": "declined"})),
        "not done (declined)",
    );
    fails_with(
        |_| {},
        auth(),
        |r| {
            Ok(answer_with(
                r,
                &redirect_for(r, &format!("&code={CODE}&iss=https://evil.example.com")),
            ))
        },
        "is not the authorization server's issuer",
    );
    fails_with(
        |_| {},
        auth(),
        |r| Ok(answer_with(r, &redirect_for(r, &format!("&code={CODE}")))),
        "carries no iss",
    );
    fails_with(
        |_| {},
        auth(),
        |r| {
            Ok(answer_with(
                r,
                &redirect_for(r, "&code=a-code-replayed&iss=http://as"),
            ))
        },
        "HTTP 400: invalid_grant",
    );
    fails_with(
        |_| {},
        auth(),
        |_| Err("the page was closed".into()),
        "waitFor failed: the page was closed",
    );
}

#[test]
fn a_broken_token_endpoint_fails_the_server_without_secrets() {
    fails_with(
        |w| *w.token_answer.borrow_mut() = Some((500, "Internal Server Error".into())),
        auth(),
        good,
        "the token endpoint answered HTTP 500",
    );
    fails_with(
        |w| *w.token_answer.borrow_mut() = Some((200, "garbage".into())),
        auth(),
        good,
        "not a JSON object",
    );
    fails_with(
        |w| *w.token_answer.borrow_mut() = Some((200, json!({"token_type": "Bearer"}).to_string())),
        auth(),
        good,
        "has no access_token",
    );
}

#[test]
fn without_a_redirect_url_the_server_fails_naming_it() {
    fails_with(|_| {}, json!({}), good, "auth.redirectUrl");
}

#[test]
fn a_call_whose_token_is_refused_halts_on_the_sign_in_and_its_retry_finishes_it() {
    let world = OAuthWorld::new(FakeMcp::new(Mode::Json));
    let (source, clock) = load_world(&world, auth(), None, memory());
    let [request] = source.pending().try_into().unwrap();
    let answer = answer_with(
        &request,
        &redirect_for(&request, &format!("&code={CODE}&iss={ISSUER}")),
    );
    let added: Rc<RefCell<Vec<toolnexus::core::tool::SharedTool>>> = Rc::default();
    let keep = added.clone();
    source.on_tools_changed(Rc::new(move |_old, new| {
        keep.borrow_mut().extend(new.iter().cloned())
    }));
    run(&clock, source.resume(answer)).unwrap();
    // The token is revoked and cannot be refreshed: the next call needs a new sign-in.
    world.revoked.set(world.issued.get());
    world.refresh_fails.set(true);
    let tool = added
        .borrow()
        .iter()
        .find(|t| t.spec().name == "main_echo")
        .cloned();
    let tool = tool.unwrap_or_else(|| panic!("no main_echo among the resumed tools"));
    let halted = run(&clock, {
        let tool = tool.clone();
        async move {
            tool.execute(json!({"text": "hi"}), Default::default())
                .await
        }
    });
    let pending = toolnexus::core::types::pending_of(&halted)
        .unwrap_or_else(|| panic!("not pending: {halted:?}"));
    assert_eq!(pending.kind, "authorization");
    // The retry carries the Answer (as runWithAnswer gives it): the sign-in finishes, the call runs.
    let url = redirect_for(&pending, &format!("&code=code-2&iss={ISSUER}"));
    let ctx = toolnexus::core::tool::Context {
        answer: Some(toolnexus::core::types::Answer {
            id: pending.id.clone(),
            ok: true,
            data: Some(json!({"url": url}).as_object().unwrap().clone()),
            reason: None,
        }),
        request: Some(pending.clone()),
        ..Default::default()
    };
    let done = run(&clock, async move {
        tool.execute(json!({"text": "hi"}), ctx).await
    });
    assert!(!done.is_error, "{done:?}");
    let last = world.mcp.seen.borrow().last().cloned().unwrap();
    assert_eq!(
        last.header("authorization").as_deref(),
        Some("Bearer access-2")
    );
}

#[test]
fn after_a_reload_mcp_resume_then_the_halted_calls_retry_go_on_with_the_new_token() {
    let world = OAuthWorld::new(FakeMcp::new(Mode::Json));
    let store = memory();
    let (first, _) = load_world(&world, auth(), Some(signs_in()), store.clone());
    assert_eq!(first.servers[0].status, Status::Connected);
    // The grant is revoked: the page (no waitFor) meets a sign-in, its Request `earlier`.
    world.revoked.set(world.issued.get());
    world.refresh_fails.set(true);
    let (page, _) = load_world(&world, auth(), None, store.clone());
    let [earlier] = page.pending().try_into().unwrap();
    // The redirect reloads the page: a new load over the same store, pending with its own flow.
    let (reloaded, clock) = load_world(&world, auth(), None, store);
    assert_eq!(reloaded.states()[0].status, Status::Pending);
    let added: Rc<RefCell<Vec<toolnexus::core::tool::SharedTool>>> = Rc::default();
    let keep = added.clone();
    reloaded.on_tools_changed(Rc::new(move |_old, new| {
        keep.borrow_mut().extend(new.iter().cloned())
    }));
    // mcpResume with the Answer to the earlier page's Request: its state names the flow.
    let url = redirect_for(&earlier, &format!("&code=code-2&iss={ISSUER}"));
    let resumed = run(&clock, reloaded.resume(answer_with(&earlier, &url))).unwrap();
    assert_eq!(resumed.status, Status::Connected, "{:?}", resumed.error);
    // The halted call's retry carries the same Answer: its flow is used, the token in place.
    let tool = added
        .borrow()
        .iter()
        .find(|t| t.spec().name == "main_echo")
        .cloned()
        .unwrap();
    let ctx = toolnexus::core::tool::Context {
        answer: Some(toolnexus::core::types::Answer {
            id: earlier.id.clone(),
            ok: true,
            data: Some(json!({"url": url}).as_object().unwrap().clone()),
            reason: None,
        }),
        request: Some(earlier.clone()),
        ..Default::default()
    };
    let done = run(&clock, async move {
        tool.execute(json!({"text": "hi"}), ctx).await
    });
    assert!(!done.is_error, "{done:?}");
    assert_eq!(
        world.codes_used.borrow().len(),
        2,
        "each code exchanged once"
    );
}

/// A waitFor whose person takes 50 (virtual) ms to sign in, each time with a new code.
struct SlowSignIn {
    clock: RefCell<Option<Rc<VirtualClock>>>,
    seen: RefCell<Vec<Request>>,
}

impl toolnexus::core::client::hooks::WaitFor for SlowSignIn {
    fn wait_for(
        &self,
        request: &Request,
    ) -> toolnexus::core::host::LocalBoxFuture<'static, Result<Value, String>> {
        self.seen.borrow_mut().push(request.clone());
        let code = format!("&code=code-{}&iss={ISSUER}", self.seen.borrow().len());
        let answer = answer_with(request, &redirect_for(request, &code));
        let sleep = self
            .clock
            .borrow()
            .as_ref()
            .map(|c| toolnexus::core::host::Clock::sleep(c.as_ref(), 50.0));
        Box::pin(async move {
            if let Some(sleep) = sleep {
                sleep.await;
            }
            Ok(answer)
        })
    }
}

#[test]
fn two_calls_refused_at_once_share_one_sign_in() {
    let world = OAuthWorld::new(FakeMcp::new(Mode::Json));
    let slow = Rc::new(SlowSignIn {
        clock: RefCell::default(),
        seen: RefCell::default(),
    });
    let clock = VirtualClock::new();
    *slow.clock.borrow_mut() = Some(clock.clone());
    let entries = toolnexus::core::mcp::config::parse_config(
        &json!({"mcpServers": {"main": {"url": SERVER, "auth": auth()}}}),
    )
    .unwrap();
    let mut host = host(Some(Rc::new(WorldHttp(world.clone()))), clock.clone());
    host.wait_for = Some(slow.clone());
    let source = run(&clock, async move { load(&entries, &host).await });
    assert_eq!(
        source.servers[0].status,
        Status::Connected,
        "{:?}",
        source.servers[0].error
    );
    world.revoked.set(world.issued.get());
    world.refresh_fails.set(true);
    let tool = source
        .tools
        .iter()
        .find(|t| t.spec().name == "main_echo")
        .cloned()
        .unwrap();
    let (a, b) = (tool.clone(), tool);
    let (one, two) = run(&clock, async move {
        futures_util::future::join(
            a.execute(json!({"text": "1"}), Default::default()),
            b.execute(json!({"text": "2"}), Default::default()),
        )
        .await
    });
    assert!(!one.is_error && !two.is_error, "{one:?} {two:?}");
    assert_eq!(
        slow.seen.borrow().len(),
        2,
        "the load's sign-in and one more"
    );
}

/// The claims of a compact JWS.
fn claims_of(jwt: &str) -> Value {
    let payload = jwt.split('.').nth(1).unwrap_or("");
    let bytes = mcp_common::ring_signer::b64(payload).unwrap();
    json!(serde_json::from_slice::<serde_json::Value>(&bytes).unwrap())
}

#[test]
fn under_dpop_the_get_stream_and_the_session_delete_carry_their_own_proof() {
    let mcp = FakeMcp::new(Mode::Json).with("GET", Reply::StreamThenHang);
    let world = OAuthWorld::new(mcp.clone());
    world.issued.set(1);
    *world.token_answer.borrow_mut() = Some((
        200,
        json!({"access_token": "access-1", "token_type": "DPoP", "expires_in": 3600}).to_string(),
    ));
    let clock = VirtualClock::new();
    let entries = toolnexus::core::mcp::config::parse_config(&json!({"mcpServers": {"main": {
        "url": SERVER,
        "auth": {"grant": "client_credentials", "clientId": "app", "clientSecret": "s3cret", "dpop": true}}}}))
    .unwrap();
    let mut base = host(Some(Rc::new(WorldHttp(world.clone()))), clock.clone());
    base.signer = Some(Rc::new(mcp_common::ring_signer::RingSigner));
    let status = run_spawning(&clock, move |spawn| async move {
        let host = toolnexus::core::mcp::McpHost {
            spawn: Some(spawn),
            ..base
        };
        let source = load(&entries, &host).await;
        source.close().await;
        source.servers[0].clone()
    });
    assert_eq!(status.status, Status::Connected, "{:?}", status.error);
    let to_server = world.hits_to(SERVER);
    for method in ["POST", "GET", "DELETE"] {
        let hits: Vec<&Hit> = to_server
            .iter()
            .filter(|h| h.method == method && h.header("authorization").is_some())
            .collect();
        assert!(!hits.is_empty(), "no authorized {method}");
        for hit in hits {
            assert_eq!(
                hit.header("authorization").as_deref(),
                Some("DPoP access-1")
            );
            let proof = hit
                .header("dpop")
                .unwrap_or_else(|| panic!("{method} without a proof"));
            let claims = claims_of(&proof);
            assert_eq!(claims["htm"], method);
            assert_eq!(claims["htu"], SERVER);
            assert!(claims["ath"].is_string(), "bound to the token");
        }
    }
    assert_eq!(mcp.seen_rpc("GET").len(), 1);
    assert_eq!(mcp.seen_rpc("DELETE").len(), 1);
}
