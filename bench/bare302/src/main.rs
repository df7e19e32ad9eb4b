//! The outside baseline of `bench/redirect.sh`: the least a hyper 1.x server can do to answer
//! a redirect. No routing, no lookup, no counting: every request gets the same 302. Built the
//! way linkapi serves (tokio multi-thread runtime, hyper-util's auto connection builder, no
//! Nagle), so the difference measured is linkapi's own work.
//!
//! Usage: bare302 ADDR (for example 127.0.0.1:18182)

use std::convert::Infallible;
use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::Full;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode, header};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;

async fn redirect(_: Request<hyper::body::Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = StatusCode::FOUND;
    response.headers_mut().insert(
        header::LOCATION,
        header::HeaderValue::from_static("https://example.com/bench"),
    );
    Ok(response)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr: SocketAddr = std::env::args()
        .nth(1)
        .ok_or("usage: bare302 ADDR")?
        .parse()?;
    let listener = TcpListener::bind(addr).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        tokio::spawn(async move {
            let _ = auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service_fn(redirect))
                .await;
        });
    }
}
