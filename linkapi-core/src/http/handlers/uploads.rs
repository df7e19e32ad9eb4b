//! Uploads: `POST /uploads`, `GET /uploads`, `DELETE /uploads/{file_id}`, the compatibility
//! `upload/image`, and the public `GET|HEAD /files/{object_key}` that hosts them.

use std::time::Duration;

use futures_util::TryStreamExt;
use http::{HeaderMap, HeaderValue, Method, StatusCode, header};

use crate::blob::{FILE_CACHE_CONTROL, Placement};
use crate::error::{Error, Result, names};
use crate::http::call::Call;
use crate::http::call::PublicCall;
use crate::http::request::{multipart_request, next_part, part_bytes, path_id, query};
use crate::http::response::{Body, bodiless, full, streamed};
use crate::model::{Upload, UploadId};
use crate::service::{
    App, ExtraFiles, HostedFile, MAX_FILES_PER_REQUEST, UploadSession, display_name,
};
use crate::wire::{compat as cwire, primary as wire};

type Response = http::Response<Body>;

/// Room for part headers and boundaries around the files themselves.
const MULTIPART_OVERHEAD: u64 = 64 << 10;
/// How long a client may pause while sending a file.
const UPLOAD_IDLE: Duration = Duration::from_secs(30);
/// Images are shown, never run: no scripts, no plugins, no framing, a sandbox if opened.
const FILE_CSP: &str = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";
/// How long a presigned redirect may be cached; well within the URL's own validity.
const REDIRECT_CACHE: &str = "private, max-age=60";

fn upload_out(app: &App, u: &Upload) -> wire::Upload {
    wire::Upload::located(u, app.file_url(&u.object_key))
}

/// The name a part gives its file; `file` when it gives none.
fn part_file_name(part: &multer::Field<'_>) -> String {
    part.file_name()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or("file")
        .to_owned()
}

/// # `POST /uploads` (`uploads:write`): one image in the part named `file`; other parts (and
/// further `file` parts) are read past. The whole body is read before the image is recorded:
/// a body malformed anywhere changes nothing.
pub(crate) async fn upload(app: &App, call: Call) -> Result<Response> {
    let limit = app.config().uploads.max_file_bytes + MULTIPART_OVERHEAD;
    let mut form = multipart_request(&call.parts.headers, call.stream, limit)?;
    let mut session = app.upload_session(1, ExtraFiles::Ignore);
    if let Err(err) = read_files(&mut form, &mut session, limit).await {
        session.abandon().await;
        return Err(err);
    }
    if session.is_empty() {
        return Err(Error::bad_request(
            names::MISSING_FILE,
            "send the image as a multipart/form-data part named file",
        ));
    }
    let mut outcome = session.commit(&call.who).await;
    match (outcome.stored.pop(), outcome.refused.pop()) {
        (Some((_, stored)), _) => Ok(call.reply.created(upload_out(app, &stored))),
        (None, Some((_, err))) => Err(err),
        (None, None) => Err(Error::Internal("an upload session recorded nothing".into())),
    }
}

/// Reads the request's parts, handing each part named `file` to `session`.
async fn read_files(
    form: &mut multer::Multipart<'static>,
    session: &mut UploadSession<'_>,
    limit: u64,
) -> Result<()> {
    while let Some(part) = next_part(form, UPLOAD_IDLE, limit).await? {
        if part.name() != Some("file") {
            continue;
        }
        let name = part_file_name(&part);
        session
            .add(name, part_bytes(part, UPLOAD_IDLE, limit))
            .await?;
    }
    Ok(())
}

/// # `POST /openapi/v1/upload/image` (`uploads:write`): one or more parts named `file`; each
/// is judged on its own, and those that pass are recorded once the whole body has been read
/// (a body malformed anywhere, or cut short, changes nothing).
pub(crate) async fn upload_images(app: &App, call: Call) -> Result<Response> {
    let limit = (app.config().uploads.max_file_bytes + MULTIPART_OVERHEAD) * MAX_FILES_PER_REQUEST;
    let mut form = multipart_request(&call.parts.headers, call.stream, limit)?;
    let mut session = app.upload_session(MAX_FILES_PER_REQUEST, ExtraFiles::Refuse);
    if let Err(err) = read_files(&mut form, &mut session, limit).await {
        session.abandon().await;
        return Err(err);
    }
    if session.is_empty() {
        return Err(Error::bad_request(
            names::MISSING_FILE,
            "send the images as multipart/form-data parts named file",
        ));
    }
    let outcome = session.commit(&call.who).await;
    let upload_success_data = outcome
        .stored
        .iter()
        .map(|(name, stored)| cwire::UploadedImage {
            file_name: display_name(name),
            img_url: app.file_url(&stored.object_key),
        })
        .collect();
    let upload_fail_data = outcome
        .refused
        .iter()
        .map(|(name, err)| {
            let shown = display_name(name);
            if let Error::Internal(_) = err {
                tracing::error!(error = %err, "storing an upload failed");
                format!("{shown}: the server could not store it")
            } else {
                format!("{shown}: {err}")
            }
        })
        .collect();
    Ok(call.reply.ok(cwire::UploadResult {
        upload_success_data,
        upload_fail_data,
    }))
}

/// # `GET /uploads` (`uploads:read`)
pub(crate) async fn list_uploads(app: &App, call: Call) -> Result<Response> {
    let q: wire::ListUploads = query(&call.parts)?;
    let (found, page, page_size) = app.uploads(&call.who, q.page, q.page_size).await?;
    Ok(call.reply.ok(wire::UploadPage {
        list: found.items.iter().map(|u| upload_out(app, u)).collect(),
        total: found.total,
        page,
        page_size,
    }))
}

/// # `DELETE /uploads/{file_id}` (`uploads:write`)
pub(crate) async fn delete_upload(app: &App, call: Call) -> Result<Response> {
    let id = UploadId(path_id(call.param(), "upload")?);
    let removed = app.delete_upload(&call.who, id).await?;
    Ok(call.reply.ok(upload_out(app, &removed)))
}

/// Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for this header).
fn none_match(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
}

/// The single byte range asked for: `Ok(None)` to send everything (no `Range`, an `If-Range`
/// naming other bytes, or several ranges), `Err(())` when no asked range is satisfiable.
fn wanted_range(
    headers: &HeaderMap,
    etag: &str,
    size: u64,
) -> Result<Option<std::ops::RangeInclusive<u64>>, ()> {
    let Some(range) = headers.get(header::RANGE).and_then(|v| v.to_str().ok()) else {
        return Ok(None);
    };
    if let Some(if_range) = headers.get(header::IF_RANGE).and_then(|v| v.to_str().ok())
        && if_range.trim() != etag
    {
        return Ok(None);
    }
    if range.contains(',') {
        // Several ranges, satisfiable or not, overlapping or not: the whole file, as for two
        // (image clients never ask for several, and a list of thousands is work for nothing).
        return Ok(None);
    }
    let Ok(parsed) = http_range_header::parse_range_header(range) else {
        // A Range header we cannot read is ignored (RFC 9110 14.2).
        return Ok(None);
    };
    match parsed.validate(size) {
        Ok(ranges) if ranges.len() == 1 => Ok(ranges.into_iter().next()),
        Ok(_) => Ok(None),
        Err(_) => Err(()),
    }
}

fn set(headers: &mut HeaderMap, name: header::HeaderName, value: &str) {
    if let Ok(value) = HeaderValue::from_str(value) {
        headers.insert(name, value);
    }
}

/// The headers every answer about a hosted file carries.
fn file_headers(headers: &mut HeaderMap, file: &HostedFile, etag: &str) {
    set(headers, header::ETAG, etag);
    set(headers, header::CACHE_CONTROL, FILE_CACHE_CONTROL);
    set(headers, header::ACCEPT_RANGES, "bytes");
    set(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(headers, header::CONTENT_SECURITY_POLICY, FILE_CSP);
    set(headers, header::CONTENT_TYPE, &file.content_type);
}

/// # `GET|HEAD /files/{object_key}`: a hosted image, with a strong ETag, `If-None-Match`
/// (304) and single byte ranges (206); or, with presigned serving, a redirect to the bucket.
pub(crate) async fn serve_file(app: &App, call: PublicCall<'_>) -> Result<Response> {
    let key = call.param().unwrap_or_default();
    let file = app.hosted_file(key).await?.ok_or(Error::NotFound("file"))?;
    if let Placement::Redirect(url) = app.file_placement(&file).await? {
        let mut response = bodiless(StatusCode::FOUND);
        set(response.headers_mut(), header::LOCATION, &url);
        set(
            response.headers_mut(),
            header::CACHE_CONTROL,
            REDIRECT_CACHE,
        );
        return Ok(response);
    }
    let etag = file.etag();
    let headers = &call.parts.headers;
    let mut response = http::Response::new(full(""));
    file_headers(response.headers_mut(), &file, &etag);
    if none_match(headers, &etag) {
        *response.status_mut() = StatusCode::NOT_MODIFIED;
        response.headers_mut().remove(header::CONTENT_TYPE);
        return Ok(response);
    }
    let size = file.size_bytes;
    let range = match wanted_range(headers, &etag, size) {
        Ok(range) => range,
        Err(()) => {
            *response.status_mut() = StatusCode::RANGE_NOT_SATISFIABLE;
            set(
                response.headers_mut(),
                header::CONTENT_RANGE,
                &format!("bytes */{size}"),
            );
            response.headers_mut().remove(header::CONTENT_TYPE);
            return Ok(response);
        }
    };
    let length = match &range {
        Some(r) => {
            *response.status_mut() = StatusCode::PARTIAL_CONTENT;
            set(
                response.headers_mut(),
                header::CONTENT_RANGE,
                &format!("bytes {}-{}/{size}", r.start(), r.end()),
            );
            r.end() - r.start() + 1
        }
        None => size,
    };
    response
        .headers_mut()
        .insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    if call.parts.method == Method::HEAD {
        return Ok(response);
    }
    let bytes = app
        .file_bytes(&file, range.map(|r| *r.start()..*r.end() + 1))
        .await?;
    *response.body_mut() = streamed(bytes.map_err(std::io::Error::other));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                header::HeaderName::from_bytes(name.as_bytes()).unwrap_or(header::RANGE),
                HeaderValue::from_str(value).unwrap_or(HeaderValue::from_static("")),
            );
        }
        map
    }

    #[test]
    fn etags_match_weakly_and_by_star() {
        let tag = "\"abc\"";
        assert!(none_match(&headers(&[("if-none-match", "\"abc\"")]), tag));
        assert!(none_match(
            &headers(&[("if-none-match", "W/\"abc\", \"x\"")]),
            tag
        ));
        assert!(none_match(&headers(&[("if-none-match", "*")]), tag));
        assert!(!none_match(&headers(&[("if-none-match", "\"abd\"")]), tag));
        assert!(!none_match(&headers(&[]), tag));
    }

    #[test]
    fn one_satisfiable_range_is_served_others_not() {
        let tag = "\"abc\"";
        assert_eq!(wanted_range(&headers(&[]), tag, 100), Ok(None));
        assert_eq!(
            wanted_range(&headers(&[("range", "bytes=0-9")]), tag, 100),
            Ok(Some(0..=9))
        );
        assert_eq!(
            wanted_range(&headers(&[("range", "bytes=-10")]), tag, 100),
            Ok(Some(90..=99))
        );
        assert_eq!(
            wanted_range(&headers(&[("range", "bytes=0-1,5-6")]), tag, 100),
            Ok(None)
        );
        assert_eq!(
            wanted_range(&headers(&[("range", "bytes=200-300")]), tag, 100),
            Err(())
        );
        let overlapping = format!("bytes={}", vec!["0-0"; 5001].join(","));
        assert_eq!(
            wanted_range(&headers(&[("range", &overlapping)]), tag, 100),
            Ok(None)
        );
        assert_eq!(
            wanted_range(&headers(&[("range", "bytes=200-300,400-500")]), tag, 100),
            Ok(None)
        );
        assert_eq!(
            wanted_range(
                &headers(&[("range", "bytes=0-9"), ("if-range", "\"old\"")]),
                tag,
                100
            ),
            Ok(None)
        );
    }
}
