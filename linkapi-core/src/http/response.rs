//! Encoding responses: the envelopes of each surface, and the one place errors become HTTP.

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Either, Full};
use serde::Serialize;

use super::budget::Held;
use crate::error::Error;
use crate::service::KeptAnswer;
use crate::wire::envelope::Envelope;
use crate::wire::envelope::{CompatError, CompatOk, PrimaryError, PrimaryOk, StatusOk};

/// The body type of every response: bytes in hand (every API answer), or a stream (files).
pub(crate) type Body = Either<Full<Bytes>, UnsyncBoxBody<Bytes, std::io::Error>>;

/// A body of bytes in hand.
pub(crate) fn full(bytes: impl Into<Bytes>) -> Body {
    Either::Left(Full::new(bytes.into()))
}

/// A body that streams `chunks`.
pub(crate) fn streamed(
    chunks: impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> + Send + 'static,
) -> Body {
    use futures_util::TryStreamExt;
    let frames = chunks.map_ok(hyper::body::Frame::data);
    Either::Right(http_body_util::StreamBody::new(frames).boxed_unsync())
}

/// Answers at least this large keep their request's share of the budget until they are sent.
const HELD_WHILE_SENT: u64 = 1 << 20;

/// `response`, keeping `held` (its request's share of the memory budget) until its body has
/// been sent or dropped when the share is large: a large answer is memory the share pays for,
/// however slowly the client reads it.
pub(crate) fn holding(response: Response<Body>, held: Option<Held>) -> Response<Body> {
    let Some(held) = held.filter(|held| held.bytes() >= HELD_WHILE_SENT) else {
        return response;
    };
    response.map(|body| {
        let guarded = Guarded { body, _held: held };
        Either::Right(guarded.map_err(std::io::Error::other).boxed_unsync())
    })
}

/// A body with a share of the budget that lives as long as it.
struct Guarded {
    body: Body,
    _held: Held,
}

impl hyper::body::Body for Guarded {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, Self::Error>>> {
        std::pin::Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

fn json_response(status: StatusCode, value: &impl Serialize) -> Response<Body> {
    kept_response(json_answer(status, value))
}

/// `value` as a JSON answer with `status`; a value that does not serialize is a 500.
fn json_answer(status: StatusCode, value: &impl Serialize) -> KeptAnswer {
    match serde_json::to_vec(value) {
        Ok(bytes) => KeptAnswer {
            status: status.as_u16(),
            body: bytes.into(),
        },
        Err(err) => {
            tracing::error!(error = %err, "response did not serialize");
            KeptAnswer {
                status: StatusCode::INTERNAL_SERVER_ERROR.as_u16(),
                body: Bytes::from_static(
                    br#"{"code":"internal_error","message":"internal error","status":500}"#,
                ),
            }
        }
    }
}

/// A JSON answer as a response.
pub(crate) fn kept_response(answer: KeptAnswer) -> Response<Body> {
    let mut response = Response::new(full(answer.body));
    *response.status_mut() =
        StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// A JSON answer written in pieces (a bulk create's runs), sent as they are, with its length.
pub(crate) fn json_pieces(status: u16, pieces: Vec<Bytes>) -> Response<Body> {
    let length: usize = pieces.iter().map(Bytes::len).sum();
    let chunks = futures_util::stream::iter(pieces.into_iter().map(Ok::<_, std::io::Error>));
    let mut response = Response::new(streamed(chunks));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    response
}

/// The answer kept under an idempotency key, given again: marked `Idempotency-Replayed`.
pub(crate) fn replayed(answer: KeptAnswer) -> Response<Body> {
    let mut response = kept_response(answer);
    response
        .headers_mut()
        .insert("idempotency-replayed", HeaderValue::from_static("true"));
    response
}

/// A 200 carrying `bytes` of `content_type`, cacheable as `cache_control` says.
/// A body rendered the first time it is asked for and kept: the OpenAPI document, which
/// costs milliseconds to build and most servers are never asked for. Whoever makes it knows
/// how to render it; whoever answers with it does not need to.
pub(crate) struct RenderedOnce {
    body: std::sync::OnceLock<Bytes>,
    render: Box<dyn Fn() -> Bytes + Send + Sync>,
}

impl RenderedOnce {
    pub(crate) fn new(render: impl Fn() -> Bytes + Send + Sync + 'static) -> Self {
        RenderedOnce {
            body: std::sync::OnceLock::new(),
            render: Box::new(render),
        }
    }

    /// The body, rendered now if it never was.
    pub(crate) fn get(&self) -> Bytes {
        self.body.get_or_init(|| (self.render)()).clone()
    }
}

pub(crate) fn bytes(
    content_type: &'static str,
    cache_control: &'static str,
    bytes: impl Into<Bytes>,
) -> Response<Body> {
    let mut response = Response::new(full(bytes));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// A file to save, streamed from `chunks` as it is made: never cached, and named
/// `file_name` for a browser or `curl -OJ`. A chunk that fails cuts the answer short, so the
/// client sees a failed transfer, never a file that merely looks complete.
pub(crate) fn download(
    content_type: &'static str,
    file_name: &'static str,
    chunks: impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> + Send + 'static,
) -> Response<Body> {
    let mut response = Response::new(streamed(chunks));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if let Ok(disposition) = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
    {
        headers.insert(header::CONTENT_DISPOSITION, disposition);
    }
    response
}

/// A rendered jump page: HTML under the pages' Content-Security-Policy, never cached (the
/// channel it shows changes from one visit to the next).
pub(crate) fn jump_page(html: String) -> Response<Body> {
    let mut response = bytes("text/html; charset=utf-8", "no-store", html);
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(crate::pages::CONTENT_SECURITY_POLICY),
    );
    response
        .headers_mut()
        .insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    response
}

/// The metrics in the Prometheus text format.
pub(crate) fn metrics(
    metrics: &crate::metrics::Metrics,
    headers: &http::HeaderMap,
) -> Response<Body> {
    let accept = headers
        .get(http::header::ACCEPT)
        .and_then(|v| v.to_str().ok());
    let format = crate::metrics::Format::negotiate(accept);
    let mut response = bytes(format.content_type(), "no-store", metrics.encode(format));
    response
        .headers_mut()
        .insert(http::header::VARY, http::HeaderValue::from_static("accept"));
    response
}

/// How a handler answers: the success envelope its route declares. Handlers never choose
/// an envelope themselves.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reply {
    pub(crate) envelope: Envelope,
}

impl Reply {
    /// 200 with `data` in the route's envelope.
    pub(crate) fn ok<T: Serialize>(self, data: T) -> Response<Body> {
        success(self.envelope, StatusCode::OK, data)
    }

    /// 201 with `data` in the route's envelope.
    pub(crate) fn created<T: Serialize>(self, data: T) -> Response<Body> {
        success(self.envelope, StatusCode::CREATED, data)
    }

    /// [`Reply::ok`] as an answer an idempotency key can keep.
    pub(crate) fn ok_answer<T: Serialize>(self, data: T) -> KeptAnswer {
        success_answer(self.envelope, StatusCode::OK, data)
    }

    /// [`Reply::created`] as an answer an idempotency key can keep.
    pub(crate) fn created_answer<T: Serialize>(self, data: T) -> KeptAnswer {
        success_answer(self.envelope, StatusCode::CREATED, data)
    }
}

/// `data` in a success envelope.
pub(crate) fn success<T: Serialize>(
    envelope: Envelope,
    status: StatusCode,
    data: T,
) -> Response<Body> {
    kept_response(success_answer(envelope, status, data))
}

/// `data` in a success envelope, as status and bytes.
fn success_answer<T: Serialize>(envelope: Envelope, status: StatusCode, data: T) -> KeptAnswer {
    match envelope {
        Envelope::Primary | Envelope::Page => json_answer(
            status,
            &PrimaryOk {
                code: 1,
                message: "ok".into(),
                data,
            },
        ),
        Envelope::Compat => json_answer(
            status,
            &CompatOk {
                code: 1,
                msg: "ok".into(),
                result: data,
            },
        ),
        Envelope::Status => json_answer(
            status,
            &StatusOk {
                status: 1,
                result: data,
            },
        ),
    }
}

/// A small HTML page for visitors of short links.
pub(crate) fn page(status: StatusCode, title: &str, text: &str) -> Response<Body> {
    html_page(status, page_html(title, text))
}

fn page_html(title: &str, text: &str) -> String {
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head>\
         <body><h1>{title}</h1><p>{text}</p></body></html>\n"
    )
}

/// A response of `status` alone, without a body: a redirect (its `Location` says it all) or
/// a 204.
pub(crate) fn bodiless(status: StatusCode) -> Response<Body> {
    let mut response = Response::new(full(Bytes::new()));
    *response.status_mut() = status;
    response
}

fn html_page(status: StatusCode, html: impl Into<Bytes>) -> Response<Body> {
    let mut response = Response::new(full(html));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

/// The response for `err` in an operation whose errors use `envelope`. Internal errors are
/// logged here with their cause and answered without it.
pub(crate) fn error(envelope: Envelope, err: &Error) -> Response<Body> {
    if let Error::Internal(cause) = err {
        tracing::error!(error = %cause, source = ?cause.source(), "internal error");
    }
    let status = err.status();
    let message = err.to_string();
    let mut response = match envelope {
        // Operations answering `{status: 1, result}` report errors as the primary surface does.
        Envelope::Primary | Envelope::Status => json_response(
            status,
            &PrimaryError {
                code: err.code().into(),
                message,
                status: status.as_u16(),
            },
        ),
        Envelope::Compat => json_response(
            status,
            &CompatError {
                code: 0,
                msg: message,
            },
        ),
        Envelope::Page => match status {
            StatusCode::NOT_FOUND => page(status, "Not found", "This short link does not exist."),
            _ => page(
                status,
                "Unavailable",
                "This short link cannot be opened right now.",
            ),
        },
    };
    let headers = response.headers_mut();
    if let Error::MethodNotAllowed { allow } = err
        && let Ok(value) = HeaderValue::from_str(allow)
    {
        headers.insert(header::ALLOW, value);
    }
    if let Some(secs) = err.retry_after() {
        headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    response
}

#[cfg(test)]
mod tests {
    use crate::error::names;
    use http_body_util::BodyExt;

    use super::*;

    async fn json(response: Response<Body>) -> (StatusCode, serde_json::Value) {
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        (status, serde_json::from_slice(&bytes).unwrap_or_default())
    }

    #[tokio::test]
    async fn each_envelope_wraps_success_as_its_surface_expects() {
        let data = serde_json::json!({"chain_id": 7});
        let (status, primary) = json(success(Envelope::Primary, StatusCode::CREATED, &data)).await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(
            primary,
            serde_json::json!({"code": 1, "message": "ok", "data": data})
        );
        let (_, compat) = json(success(Envelope::Compat, StatusCode::OK, &data)).await;
        assert_eq!(
            compat,
            serde_json::json!({"code": 1, "msg": "ok", "result": data})
        );
        let (_, status_ok) = json(success(Envelope::Status, StatusCode::OK, &data)).await;
        assert_eq!(status_ok, serde_json::json!({"status": 1, "result": data}));
    }

    #[tokio::test]
    async fn status_envelope_operations_report_errors_as_the_primary_surface() {
        let err = Error::bad_request(names::MISSING_OUT_ID, "out_id is required");
        let (status, body) = json(error(Envelope::Status, &err)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(
            body,
            serde_json::json!({"code": "missing_out_id", "message": "out_id is required", "status": 400})
        );
        let (_, compat) = json(error(Envelope::Compat, &err)).await;
        assert_eq!(
            compat,
            serde_json::json!({"code": 0, "msg": "out_id is required"})
        );
    }

    #[tokio::test]
    async fn unavailable_stores_answer_503_with_retry_after() {
        let err = Error::Unavailable { retry_after: 2 };
        let response = error(Envelope::Compat, &err);
        assert_eq!(response.headers()[header::RETRY_AFTER], "2");
        let (status, body) = json(response).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body["code"], 0);
    }
}
