//! `linkapi-server healthcheck`: asks the server on this machine for `/healthz`, for probes
//! that have nothing but the binary (the container image's `HEALTHCHECK` has no shell and no
//! curl). Exit 0 when it answers 200 in time, else 1 with the reason on stderr.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::config::DEFAULT_LISTEN;
use super::{FileConfig, reachable};

/// Flags of `healthcheck`: where the server listens, read as the server reads it.
#[derive(Debug, Clone, clap::Args)]
pub struct HealthcheckArgs {
    /// Address the server listens on [default: the configuration file's, else 127.0.0.1:8080]
    #[arg(
        long,
        env = "LINKAPI_LISTEN",
        hide_env_values = true,
        value_name = "ADDR"
    )]
    pub listen: Option<SocketAddr>,

    /// TOML configuration file of the server
    #[arg(
        long,
        env = "LINKAPI_CONFIG",
        hide_env_values = true,
        value_name = "FILE"
    )]
    pub config: Option<PathBuf>,

    /// Seconds to wait for the answer
    #[arg(long, default_value_t = 5, value_name = "SECONDS")]
    pub timeout: u64,
}

/// The most of an answer read: the status line and headers of `/healthz` fit many times over.
const ANSWER_LIMIT: u64 = 16 * 1024;

/// Asks `GET /healthz` of the server `args` name; `Ok` with the address asked when it answers
/// 200 within the timeout.
///
/// # Errors
/// When the configuration cannot be read, the server cannot be reached in time, or it answers
/// anything but 200.
pub async fn healthcheck(args: &HealthcheckArgs) -> Result<String> {
    let file = FileConfig::load_or_default(args.config.as_deref())?;
    let addr = reachable(args.listen.or(file.listen).unwrap_or(DEFAULT_LISTEN));
    let url = format!("http://{addr}/healthz");
    let status = tokio::time::timeout(Duration::from_secs(args.timeout), ask(addr))
        .await
        .map_err(|_| anyhow::anyhow!("{url}: no answer within {} s", args.timeout))?
        .with_context(|| url.clone())?;
    if status != 200 {
        bail!("{url}: answered {status}");
    }
    Ok(url)
}

/// One HTTP/1.1 request on a connection of its own; the status code of the answer.
async fn ask(addr: SocketAddr) -> Result<u16> {
    let mut stream = TcpStream::connect(addr).await?;
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut answer = Vec::new();
    stream.take(ANSWER_LIMIT).read_to_end(&mut answer).await?;
    let line = answer.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    line.strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .with_context(|| format!("not an HTTP answer: {:?}", line.trim_end()))
}
