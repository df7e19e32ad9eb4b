//! The reverse proxies of `deploy/` as written, `Caddyfile` run by Debian's Caddy and
//! `nginx.conf` by Debian's nginx, each in front of two `linkapi-server` instances over one
//! PostgreSQL database, each instance with `deploy/config.toml`: TLS (Caddy's internal CA; a
//! certificate of the test's own CA for nginx), short links in https, plain http sent there,
//! both instances serving, the client address read from `X-Forwarded-For` only when the
//! proxy sent it, and `/metrics` kept from the outside.
//!
//! Needs the proxy and PostgreSQL; without either a test is listed as ignored, unless `CI` is
//! set, when it fails (see `needs.rs`).

#![allow(clippy::unwrap_used)]

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

#[path = "../../linkapi-core/tests/needs.rs"]
mod needs;
#[path = "../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;
mod support;

use needs::{CADDY, NGINX, POSTGRESQL};

use serde_json::{Value, json};
use support::{KEY, Running, text};

const SITE: &str = "s.example.com";
const BROWSER: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36";

/// A port nothing listens on, below the range the kernel gives outgoing connections (32768
/// and up by default), so that no connection of the run's takes it before the proxy binds it.
fn free_port() -> u16 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let start = std::process::id().wrapping_mul(7919);
    loop {
        let offset = start.wrapping_add(NEXT.fetch_add(1, Ordering::Relaxed)) % 12_000;
        let port = 20_000 + u16::try_from(offset).unwrap();
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

/// The proxy's process, stopped when the test ends: SIGTERM, so that nginx's master stops
/// its workers too (killed, it would leave them running).
struct Proxy(Child);

impl Drop for Proxy {
    fn drop(&mut self) {
        let pid = self.0.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let _ = self.0.wait();
    }
}

/// Replaces `from` in `text`, which must hold it.
fn replaced(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the file says {from}");
    text.replace(from, to)
}

/// An https client of the proxy: Caddy's root trusted, the site's name resolved to it, and the
/// connection made from `from` (a loopback address of its own, so each is a client of its own).
fn https_client(root: &[u8], https: u16, from: IpAddr) -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .tls_certs_only([reqwest::Certificate::from_pem(root).unwrap()])
        .resolve(SITE, SocketAddr::from(([127, 0, 0, 1], https)))
        .local_address(from)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

fn http_client(from: IpAddr) -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .local_address(from)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

fn loopback(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

/// Two instances over `database`, each with deploy/config.toml (public URL, trusted proxy)
/// on a port of its own, rate limits off for the test's bursts.
fn instances(dir: &Path, database: &str) -> Vec<Running> {
    let config = std::fs::read_to_string(root().join("deploy/config.toml")).unwrap();
    assert!(config.contains(&format!("public_url = \"https://{SITE}\"")));
    let path = dir.join("config.toml");
    std::fs::write(&path, format!("{config}\nrate_limit_per_second = 0\n")).unwrap();
    (0..2)
        .map(|_| {
            Running::start(&[
                "--config",
                path.to_str().unwrap(),
                "--database-url",
                database,
                "--listen",
                &format!("127.0.0.1:{}", free_port()),
            ])
        })
        .collect()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn port_of(instance: &Running) -> u16 {
    instance.url.rsplit(':').next().unwrap().parse().unwrap()
}

/// A proxy in front of the instances: its process, ports, the root certificate its clients
/// trust, and the file its errors go to.
struct Front {
    process: Proxy,
    http: u16,
    https: u16,
    root_pem: PathBuf,
    log: PathBuf,
}

impl Front {
    /// What the proxy logged, for a test that failed.
    fn logged(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_else(|err| format!("(no log: {err})"))
    }
}

/// deploy/Caddyfile with its upstreams at the instances' ports, and the test's own ports and
/// state.
fn caddy(dir: &Path, instances: &[Running]) -> Front {
    let (http, https) = (free_port(), free_port());
    let caddyfile = std::fs::read_to_string(root().join("deploy/Caddyfile")).unwrap();
    let upstreams = format!(
        "127.0.0.1:{} 127.0.0.1:{}",
        port_of(&instances[0]),
        port_of(&instances[1])
    );
    let caddyfile = replaced(&caddyfile, "127.0.0.1:8080 127.0.0.1:8081", &upstreams);
    let caddyfile = format!(
        "{{\n\tadmin off\n\thttp_port {http}\n\thttps_port {https}\n\tskip_install_trust\n}}\n\n{caddyfile}"
    );
    let path = dir.join("Caddyfile");
    std::fs::write(&path, caddyfile).unwrap();
    let log = dir.join("caddy.log");
    let process = Command::new("caddy")
        .args(["run", "--adapter", "caddyfile", "--config"])
        .arg(&path)
        .env("HOME", dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    Front {
        process: Proxy(process),
        http,
        https,
        root_pem: dir.join("data/caddy/pki/authorities/local/root.crt"),
        log,
    }
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        text(&out.stderr)
    );
}

/// A CA of the test's (`ca.pem`) and a certificate for the site it signed (`site.pem`,
/// `site.key`), in `dir`.
#[rustfmt::skip]
fn certificate(dir: &Path) {
    openssl(dir, &["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
        "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=linkapi test CA"]);
    openssl(dir, &["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", "site.key", "-out", "site.csr", "-subj", &format!("/CN={SITE}")]);
    std::fs::write(dir.join("site.ext"), format!(
        "subjectAltName=DNS:{SITE}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
    )).unwrap();
    openssl(dir, &["x509", "-req", "-in", "site.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "site.pem", "-days", "1", "-extfile", "site.ext"]);
}

/// deploy/nginx.conf in the http block of a configuration of the test's, with its upstreams
/// at the instances' ports, the test's ports, and a certificate from a CA of the test's.
fn nginx(dir: &Path, instances: &[Running]) -> Front {
    certificate(dir);
    let (http, https) = (free_port(), free_port());
    let d = dir.to_str().unwrap();
    let mut conf = std::fs::read_to_string(root().join("deploy/nginx.conf")).unwrap();
    for (from, to) in [
        (
            "127.0.0.1:8080 ",
            format!("127.0.0.1:{} ", port_of(&instances[0])),
        ),
        (
            "127.0.0.1:8081 ",
            format!("127.0.0.1:{} ", port_of(&instances[1])),
        ),
        ("listen 80;", format!("listen 127.0.0.1:{http};")),
        ("listen 443 ssl", format!("listen 127.0.0.1:{https} ssl")),
        (
            "/etc/letsencrypt/live/s.example.com/fullchain.pem",
            format!("{d}/site.pem"),
        ),
        (
            "/etc/letsencrypt/live/s.example.com/privkey.pem",
            format!("{d}/site.key"),
        ),
    ] {
        conf = replaced(&conf, from, &to);
    }
    std::fs::write(dir.join("linkapi.conf"), conf).unwrap();
    std::fs::write(
        dir.join("nginx.conf"),
        format!(
            "daemon off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
             events {{ worker_connections 256; }}\n\
             http {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  \
             proxy_temp_path {d}/proxy;\n  include {d}/linkapi.conf;\n}}\n"
        ),
    )
    .unwrap();
    let check = Command::new("nginx")
        .args(["-t", "-p", d, "-e", &format!("{d}/error.log"), "-c"])
        .arg(dir.join("nginx.conf"))
        .output()
        .unwrap();
    assert!(check.status.success(), "nginx -t: {}", text(&check.stderr));
    let process = Command::new("nginx")
        .args(["-p", d, "-e", &format!("{d}/error.log"), "-c"])
        .arg(dir.join("nginx.conf"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    Front {
        process: Proxy(process),
        http,
        https,
        root_pem: dir.join("ca.pem"),
        log: dir.join("error.log"),
    }
}

fn main() -> std::process::ExitCode {
    needs::run(vec![
        needs::trial(
            "caddy_in_front_of_two_instances_serves_https_links_and_keeps_metrics_inside",
            &[&CADDY, &POSTGRESQL],
            || needs::block_on(behind(caddy)),
        ),
        needs::trial(
            "nginx_in_front_of_two_instances_serves_https_links_and_keeps_metrics_inside",
            &[&NGINX, &POSTGRESQL],
            || needs::block_on(behind(nginx)),
        ),
    ])
}

/// Two instances over a new database, `proxy` started in front of them, and the checks.
async fn behind(proxy: fn(&Path, &[Running]) -> Front) {
    let cluster = pg_cluster::cluster().expect("PostgreSQL, checked before the trial");
    let dir = tempfile::tempdir().unwrap();
    let instances = instances(dir.path(), &cluster.new_database());
    let mut front = proxy(dir.path(), &instances);
    behaves_as_deployed(&mut front, instances).await;
}

/// What a deployment behind `front` must do, asked of it as its users would.
async fn behaves_as_deployed(front: &mut Front, instances: Vec<Running>) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let pem = loop {
        assert!(
            Instant::now() < deadline,
            "the proxy answers on https; it logged:\n{}",
            front.logged()
        );
        if let Ok(Some(exit)) = front.process.0.try_wait() {
            panic!("the proxy stopped ({exit}); it logged:\n{}", front.logged());
        }
        if let Ok(pem) = std::fs::read(&front.root_pem) {
            let client = https_client(&pem, front.https, loopback(2));
            if let Ok(answer) = client.get(format!("https://{SITE}/healthz")).send().await {
                assert_eq!(answer.status().as_u16(), 200);
                break pem;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let visitor = https_client(&pem, front.https, loopback(2));
    let other_visitor = https_client(&pem, front.https, loopback(3));

    // A chain made through the proxy has an https short link, which redirects.
    let made: Value = visitor
        .post(format!("https://{SITE}/chains"))
        .bearer_auth(KEY)
        .json(&json!({"target_url": "https://example.com/behind-a-proxy"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let render_url = made["data"]["render_url"].as_str().unwrap().to_owned();
    let code = made["data"]["code"].as_str().unwrap().to_owned();
    let id = made["data"]["id"].as_i64().unwrap();
    assert_eq!(render_url, format!("https://{SITE}/{code}"), "{made}");
    // Plain http at the proxy is sent to the https link (on the https port, 443 outside this
    // test, which the link leaves out).
    let plain = http_client(loopback(2))
        .get(format!("http://127.0.0.1:{}/{code}", front.http))
        .header("Host", SITE)
        .send()
        .await
        .unwrap();
    assert_eq!(plain.status().as_u16(), 308);
    assert_eq!(plain.headers()["location"].to_str().unwrap(), render_url);

    // Visits: two clients through the proxy (the first claiming to be others), and one
    // straight to an instance claiming the same. Only the proxy's X-Forwarded-For is read.
    for (client, claim) in [
        (&visitor, "203.0.113.1"),
        (&visitor, "203.0.113.2"),
        (&other_visitor, "203.0.113.3"),
    ] {
        let answer = client
            .get(&render_url)
            .header("User-Agent", BROWSER)
            .header("X-Forwarded-For", claim)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status().as_u16(), 302);
        assert_eq!(
            answer.headers()["location"].to_str().unwrap(),
            "https://example.com/behind-a-proxy"
        );
    }
    let direct = http_client(loopback(4));
    for claim in ["203.0.113.1", "203.0.113.2"] {
        let answer = direct
            .get(format!("{}/{code}", instances[0].url))
            .header("Host", SITE)
            .header("User-Agent", BROWSER)
            .header("X-Forwarded-For", claim)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status().as_u16(), 302);
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    let stats = loop {
        let stats: Value = visitor
            .get(format!("https://{SITE}/chains/{id}/stats"))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if stats["data"]["total_clicks"] == 5 || Instant::now() > deadline {
            break stats;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(stats["data"]["total_clicks"], 5, "{stats}");
    // 127.0.0.2 and 127.0.0.3 through the proxy, 127.0.0.4 straight: three visitors. Reading
    // no header would make the proxy's clients one; reading anyone's, the direct client two.
    assert_eq!(stats["data"]["unique_visitors"], 3, "{stats}");

    // /metrics: not through the proxy; on each instance's own address, for Prometheus, where
    // both show that the proxy sent them visits.
    let outside = visitor
        .get(format!("https://{SITE}/metrics"))
        .send()
        .await
        .unwrap();
    assert_eq!(outside.status().as_u16(), 404);
    // The first instance served the two straight visits; each at least one of the proxy's.
    for (instance, least) in instances.iter().zip([3.0, 1.0]) {
        let metrics = http_client(loopback(1))
            .get(format!("{}/metrics", instance.url))
            .send()
            .await
            .unwrap();
        assert_eq!(metrics.status().as_u16(), 200);
        let body = metrics.text().await.unwrap();
        let redirects: f64 = body
            .lines()
            .filter(|l| l.starts_with("linkapi_requests_total{operation=\"redirect\""))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum();
        assert!(redirects >= least, "{}: {body}", instance.url);
    }
    for instance in instances {
        instance.stop();
    }
}
