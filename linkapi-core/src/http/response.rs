//! Encoding responses: the envelopes of each surface, and the one place errors become HTTP.

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::Full;
use serde::Serialize;

use super::router::Surface;
use crate::error::Error;
use crate::wire::envelope::{CompatError, CompatOk, PrimaryError, PrimaryOk};

/// The body type of every response.
pub(crate) type Body = Full<Bytes>;

fn json_response(status: StatusCode, value: &impl Serialize) -> Response<Body> {
    match serde_json::to_vec(value) {
        Ok(bytes) => {
            let mut response = Response::new(Full::new(Bytes::from(bytes)));
            *response.status_mut() = status;
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
        Err(err) => {
            tracing::error!(error = %err, "response did not serialize");
            let mut response = Response::new(Full::new(Bytes::from_static(
                br#"{"code":"internal_error","message":"internal error","status":500}"#,
            )));
            *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
    }
}

/// 200 `{code: 1, message: "ok", data}`.
pub(crate) fn primary<T: Serialize>(data: T) -> Response<Body> {
    primary_with(StatusCode::OK, data)
}

/// `{code: 1, message: "ok", data}` with another success status (201).
pub(crate) fn primary_with<T: Serialize>(status: StatusCode, data: T) -> Response<Body> {
    json_response(
        status,
        &PrimaryOk {
            code: 1,
            message: "ok".into(),
            data,
        },
    )
}

/// 200 `{code: 1, msg: "ok", result}`.
pub(crate) fn compat<T: Serialize>(result: T) -> Response<Body> {
    json_response(
        StatusCode::OK,
        &CompatOk {
            code: 1,
            msg: "ok".into(),
            result,
        },
    )
}

/// A small HTML page for visitors of short links.
pub(crate) fn page(status: StatusCode, title: &str, text: &str) -> Response<Body> {
    let html = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head>\
         <body><h1>{title}</h1><p>{text}</p></body></html>\n"
    );
    let mut response = Response::new(Full::new(Bytes::from(html)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

/// The response for `err` on `surface`. Internal errors are logged here with their cause and
/// answered without it.
pub(crate) fn error(surface: Surface, err: &Error) -> Response<Body> {
    if let Error::Internal(cause) = err {
        tracing::error!(error = %cause, source = ?cause.source(), "internal error");
    }
    let status = err.status();
    let message = err.to_string();
    let mut response = match surface {
        Surface::Primary => json_response(
            status,
            &PrimaryError {
                code: err.code().into(),
                message,
                status: status.as_u16(),
            },
        ),
        Surface::Compat => json_response(
            status,
            &CompatError {
                code: 0,
                msg: message,
            },
        ),
        Surface::Public => match status {
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
