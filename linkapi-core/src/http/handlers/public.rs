//! Unauthenticated endpoints: health checks and the redirect of `/{code}`.

use http::{HeaderValue, Method, StatusCode, header};

use crate::error::Result;
use crate::http::call::{Head, PublicCall};
use crate::http::request::{client_address, unreserved_decoded};
use crate::http::response::{Body, bodiless, error, jump_page, page};
use crate::model::RedirectStatus;
use crate::service::{App, VisitAnswer, VisitRequest};
use crate::wire::envelope::Envelope;
use crate::wire::primary::Health;

type Response = http::Response<Body>;

/// # `GET /healthz`: the process answers. Touches nothing shared, so it answers while the
/// store is down.
pub(crate) async fn healthz(_app: &App, call: PublicCall<'_>) -> Result<Response> {
    Ok(call.reply.ok(Health {
        status: "ok".into(),
    }))
}

/// # `GET /readyz`: the store answers too (503 when it does not).
pub(crate) async fn readyz(app: &App, call: PublicCall<'_>) -> Result<Response> {
    app.ready().await?;
    Ok(call.reply.ok(Health {
        status: "ready".into(),
    }))
}

/// # `GET /metrics` from loopback clients (`metrics_access = "loopback"`, the default); 404
/// to anyone else, as if it were not there.
pub(crate) async fn metrics_on_loopback(app: &App, call: PublicCall<'_>) -> Result<Response> {
    if !client(app, &call.head()).to_canonical().is_loopback() {
        return Err(crate::error::Error::NotFound("route"));
    }
    Ok(crate::http::response::metrics(
        app.metrics(),
        &call.parts.headers,
    ))
}

/// # `GET /openapi.json`: the OpenAPI 3.1 document of every operation, built once per
/// server from the route table.
pub(crate) async fn openapi(_app: &App, call: PublicCall<'_>) -> Result<Response> {
    Ok(crate::http::response::bytes(
        "application/json",
        "public, max-age=300",
        call.openapi.get(),
    ))
}

/// # `GET /favicon.ico`: no icon, said without an error. Browsers ask for it on every page
/// they show (jump pages); a 404 would be logged in the visitor's console each time.
pub(crate) async fn favicon(_app: &App, _call: PublicCall<'_>) -> Result<Response> {
    let mut response = bodiless(StatusCode::NO_CONTENT);
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=86400"),
    );
    Ok(response)
}

/// # `GET /`: the server's own root. A 302 to the deployment's `home_url` when it names one
/// (the operator's site), else a plain page saying what the server is: not the unknown-link
/// page a code would get, which told someone trying the bare domain that something was broken.
pub(crate) async fn home(app: &App, call: PublicCall<'_>) -> Result<Response> {
    let host = request_host(&call.head()).unwrap_or_default();
    app.record_orphan(host, crate::model::OrphanKind::BaseUrl);
    let Some(home) = &app.config().home_url else {
        return Ok(page(
            StatusCode::OK,
            "linkapi",
            "This server hosts short links: each link is this address followed by its code.",
        ));
    };
    redirect_to(
        RedirectStatus::Found,
        bytes::Bytes::copy_from_slice(home.as_bytes()),
        || format!("home_url {home:?} is not a header value"),
    )
}

/// The client's address by the deployment's trusted-proxy rule.
fn client(app: &App, head: &Head<'_>) -> std::net::IpAddr {
    let config = app.config();
    client_address(
        head.headers,
        head.peer.ip(),
        &config.trusted_proxies,
        config.client_address_header,
    )
}

/// The host a visit was sent to.
fn request_host<'h>(head: &Head<'h>) -> Option<&'h str> {
    crate::http::request::request_host(head.known.host, head.uri)
}

/// # `GET|HEAD /{code}` on a chain's domain: 302, 404 or 410 for short chains; the jump page
/// (or a 302 straight to the destination) for messaging-app, card and work-chat chains.
/// Most visits are answered first by [`redirect_at_once`]; this runs for the rest.
///
/// An `async` block rather than an `async fn`: the function's future kept its argument twice
/// (the parameter, and the local it is moved into), and at 1,072 bytes was past the largest
/// block glibc keeps per thread, allocated for every redirect.
#[allow(
    clippy::manual_async_fn,
    reason = "an async fn's future holds its argument twice"
)]
pub(crate) fn redirect<'a>(
    app: &'a App,
    call: PublicCall<'a>,
) -> impl Future<Output = Result<Response>> + Send + 'a {
    async move {
        let head = call.head();
        let (host, code) = visited(&head);
        // `/%41bc` is `/Abc`: unreserved characters may come percent-encoded.
        let code = unreserved_decoded(code);
        let answer = app.visit(host, &code, || visit_request(app, &head)).await?;
        answer_visit(answer)
    }
}

/// [`redirect`] answered from the link cache, with no waiting (`App::visit_at_once`); `None`
/// when it needs the store, or a page, or the code has escapes to decode.
pub(crate) fn redirect_at_once(app: &App, head: &Head<'_>) -> Option<Result<Response>> {
    let (host, code) = visited(head);
    if code.contains('%') {
        return None;
    }
    let answer = app.visit_at_once(host, code, || visit_request(app, head))?;
    Some(answer_visit(answer))
}

/// The host and code a visit asks for.
fn visited<'h>(head: &Head<'h>) -> (&'h str, &'h str) {
    let host = request_host(head).unwrap_or_default();
    (host, head.param.unwrap_or_default())
}

/// What a visit's counting reads of the request. Made only for visits that reach a chain:
/// unknown codes cost no address work.
fn visit_request<'h>(app: &App, head: &Head<'h>) -> VisitRequest<'h> {
    let bytes =
        |value: Option<&'h HeaderValue>| value.map(HeaderValue::as_bytes).unwrap_or_default();
    VisitRequest {
        address: client(app, head),
        user_agent: bytes(head.known.user_agent),
        head: *head.method == Method::HEAD,
        referer: bytes(head.known.referer),
        accept_language: bytes(head.known.accept_language),
        query: head.uri.query().unwrap_or_default(),
    }
}

/// The response to a visit's answer.
fn answer_visit(answer: VisitAnswer) -> Result<Response> {
    Ok(match answer {
        // Stored destinations passed URL validation, so an unusable one is damaged at rest.
        VisitAnswer::Redirect {
            chain_id,
            location,
            status,
        } => redirect_to(status, location.into_bytes(), || {
            format!("chain {chain_id} has an unusable destination")
        })?,
        VisitAnswer::Page(html) => jump_page(html),
        VisitAnswer::UsedUp => page(
            StatusCode::GONE,
            "Codes used up",
            "Every code of this link has been used up. Please try again later.",
        ),
        VisitAnswer::NotFound => error(Envelope::Page, &crate::error::Error::NotFound("link")),
        VisitAnswer::Expired => page(
            StatusCode::GONE,
            "Link expired",
            "This short link has expired.",
        ),
    })
}

/// A redirect to `location` with `status`, never cached (a permanent status included): edits
/// must take effect at once, and visits be counted. No body: browsers and HTTP clients follow
/// `Location` and show no page, and the 144-byte page every 302 carried was 4% of a cached
/// redirect's CPU (docs/decisions.md). The header keeps `location`'s buffer (checked, not
/// copied). `unusable` says what is wrong when `location` cannot be a header value.
fn redirect_to(
    status: RedirectStatus,
    location: bytes::Bytes,
    unusable: impl FnOnce() -> String,
) -> Result<Response> {
    let Ok(value) = HeaderValue::from_maybe_shared(location) else {
        return Err(crate::error::Error::Internal(unusable().into()));
    };
    let status = match status {
        RedirectStatus::Moved => StatusCode::MOVED_PERMANENTLY,
        RedirectStatus::Found => StatusCode::FOUND,
        RedirectStatus::Temporary => StatusCode::TEMPORARY_REDIRECT,
        RedirectStatus::Permanent => StatusCode::PERMANENT_REDIRECT,
    };
    let mut response = bodiless(status);
    let headers = response.headers_mut();
    headers.insert(header::LOCATION, value);
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    Ok(response)
}
