//! Metrics an instance exposes at `GET /metrics`, with the `prometheus-client` crate: in the
//! classic Prometheus text format (0.0.4), which every Prometheus parser reads, or in
//! OpenMetrics when the scrape's `Accept` asks for it (Prometheus itself does).
//!
//! Each [`crate::service::App`] owns one [`Metrics`]: several servers in one process (tests,
//! embedders) count separately. Handles are cheap atomics; labelled families take a read lock
//! and a hash lookup, so the redirect path only touches unlabelled counters it holds.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// The operation name of a visit to a short link, for the route table (`http::route::table`), the
/// router (codes that are API prefixes never reach it) and the series created up front here.
pub(crate) const REDIRECT: &str = crate::wire::operations::op::REDIRECT.name;

/// The text formats of `/metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The classic Prometheus text format, version 0.0.4: counters named `*_total` in their
    /// `# HELP` and `# TYPE` lines too, no `# EOF`.
    Classic,
    /// OpenMetrics 1.0: counter families named without `_total`, samples with it, `# EOF`.
    OpenMetrics,
}

impl Format {
    /// The format a scrape's `Accept` header asks for: OpenMetrics when it names
    /// `application/openmetrics-text` at least as high as any text it also takes, else the
    /// classic format (no header, `*/*`, `text/plain`).
    pub fn negotiate(accept: Option<&str>) -> Format {
        let (mut open_metrics, mut classic) = (0.0_f32, 0.0_f32);
        for range in accept.unwrap_or_default().split(',') {
            let mut params = range.split(';');
            let media = params.next().unwrap_or_default().trim();
            let q = params
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if media.eq_ignore_ascii_case("application/openmetrics-text") {
                open_metrics = open_metrics.max(q);
            } else if ["text/plain", "text/*", "*/*"]
                .iter()
                .any(|m| media.eq_ignore_ascii_case(m))
            {
                classic = classic.max(q);
            }
        }
        if open_metrics > 0.0 && open_metrics >= classic {
            Format::OpenMetrics
        } else {
            Format::Classic
        }
    }

    /// The media type of metrics in this format.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Classic => "text/plain; version=0.0.4; charset=utf-8",
            Format::OpenMetrics => "application/openmetrics-text; version=1.0.0; charset=utf-8",
        }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    operation: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OperationLabels {
    operation: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabels {
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CacheLabels {
    cache: &'static str,
}

/// What a redirect request came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RedirectOutcome {
    /// 302 to the target.
    Found,
    /// No such live link.
    NotFound,
    /// The link expired.
    Gone,
}

/// The caches whose hits and misses are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CacheName {
    /// Links by domain and code, for redirects.
    Links,
    /// Keys by the hash of their secret, for authentication.
    Keys,
}

/// Hit and miss counters of one cache.
#[derive(Clone, Debug, Default)]
pub(crate) struct CacheCounters {
    pub(crate) hits: Counter,
    pub(crate) misses: Counter,
}

/// Counters of the visit pipeline.
#[derive(Clone, Debug)]
pub(crate) struct VisitCounters {
    /// Visits added up in memory.
    pub(crate) queued: Counter,
    /// Visits whose counts were committed.
    pub(crate) written: Counter,
    /// Visits not counted because pending counts filled their memory bound.
    pub(crate) dropped: Counter,
    /// Visits held back until the flusher caught up.
    pub(crate) paced: Counter,
    /// Distinct (chain, day) and (chain, visitor) entries waiting to be written.
    pub(crate) pending_entries: Gauge,
    /// Time to write one batch.
    pub(crate) flush_seconds: Histogram,
    /// Failed writes (`linkapi_store_errors_total{operation="visits.flush"}`).
    pub(crate) store_errors: Counter,
}

/// Every metric of one instance.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    durations: Family<OperationLabels, Histogram>,
    /// Redirect outcomes, created up front so every series shows from the start.
    redirects: [Counter; 3],
    /// The request series of a redirect answered 302, and the redirects' durations, created
    /// up front: looking them up in their families hashed the labels (SipHash) under a lock
    /// on every redirect, 1.9% of a cached redirect's CPU.
    redirects_found: Counter,
    redirect_durations: Histogram,
    store_errors: Family<OperationLabels, Counter>,
    pub(crate) connections: Gauge<i64, std::sync::atomic::AtomicI64>,
    pub(crate) visits: VisitCounters,
    pub(crate) link_cache: CacheCounters,
    pub(crate) key_cache: CacheCounters,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

fn latency_histogram() -> Histogram {
    // 50 µs to about 3.3 s.
    Histogram::new(exponential_buckets(0.000_05, 2.0, 17))
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// A fresh set, every counter at zero.
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("linkapi");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "requests",
            "HTTP requests answered, by operation and status",
            requests.clone(),
        );
        let durations = Family::<OperationLabels, Histogram>::new_with_constructor(
            latency_histogram as fn() -> Histogram,
        );
        registry.register(
            "request_duration_seconds",
            "Time from routing a request to its response head, by operation",
            durations.clone(),
        );
        let outcomes = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "redirects",
            "Short-link requests, by outcome (found, not_found, gone)",
            outcomes.clone(),
        );
        let redirects = ["found", "not_found", "gone"]
            .map(|outcome| outcomes.get_or_create(&OutcomeLabels { outcome }).clone());
        let store_errors = Family::<OperationLabels, Counter>::default();
        registry.register(
            "store_errors",
            "Store failures (database unavailable or failing), by operation",
            store_errors.clone(),
        );
        let connections = Gauge::<i64, std::sync::atomic::AtomicI64>::default();
        registry.register(
            "open_connections",
            "Client connections open",
            connections.clone(),
        );
        let visits = VisitCounters {
            queued: Counter::default(),
            written: Counter::default(),
            dropped: Counter::default(),
            paced: Counter::default(),
            pending_entries: Gauge::default(),
            flush_seconds: latency_histogram(),
            store_errors: store_errors
                .get_or_create(&OperationLabels {
                    operation: "visits.flush",
                })
                .clone(),
        };
        registry.register(
            "visits_queued",
            "Visits counted in memory, waiting to be written",
            visits.queued.clone(),
        );
        registry.register(
            "visits_written",
            "Visits whose counts were committed to the store",
            visits.written.clone(),
        );
        registry.register(
            "visits_dropped",
            "Visits not counted because the pending counts reached their memory bound",
            visits.dropped.clone(),
        );
        registry.register(
            "visits_paced",
            "Visit requests held back for the flusher to catch up with a backlog",
            visits.paced.clone(),
        );
        registry.register(
            "visit_pending_entries",
            "Distinct chain-day and chain-visitor entries waiting to be written",
            visits.pending_entries.clone(),
        );
        registry.register(
            "visit_flush_duration_seconds",
            "Time to write one batch of visit counts",
            visits.flush_seconds.clone(),
        );
        let caches = Family::<CacheLabels, Counter>::default();
        let misses = Family::<CacheLabels, Counter>::default();
        registry.register(
            "cache_hits",
            "Cache lookups answered from memory",
            caches.clone(),
        );
        registry.register(
            "cache_misses",
            "Cache lookups that read the store",
            misses.clone(),
        );
        let counters = |cache| CacheCounters {
            hits: caches.get_or_create(&CacheLabels { cache }).clone(),
            misses: misses.get_or_create(&CacheLabels { cache }).clone(),
        };
        let link_cache = counters("links");
        let key_cache = counters("keys");
        let redirects_found = requests
            .get_or_create(&RequestLabels {
                operation: REDIRECT,
                status: 302,
            })
            .clone();
        let redirect_durations = durations
            .get_or_create(&OperationLabels {
                operation: REDIRECT,
            })
            .clone();
        Metrics {
            registry,
            requests,
            durations,
            redirects,
            redirects_found,
            redirect_durations,
            store_errors,
            connections,
            visits,
            link_cache,
            key_cache,
        }
    }

    /// Counts an answered request.
    pub(crate) fn request(&self, operation: &'static str, status: u16, seconds: f64) {
        let count = || {
            self.requests
                .get_or_create(&RequestLabels { operation, status })
                .inc();
        };
        if operation == REDIRECT {
            if status == 302 {
                self.redirects_found.inc();
            } else {
                count();
            }
            self.redirect_durations.observe(seconds);
            return;
        }
        count();
        self.durations
            .get_or_create(&OperationLabels { operation })
            .observe(seconds);
    }

    /// Counts a redirect request's outcome.
    pub(crate) fn redirect(&self, outcome: RedirectOutcome) {
        let index = match outcome {
            RedirectOutcome::Found => 0,
            RedirectOutcome::NotFound => 1,
            RedirectOutcome::Gone => 2,
        };
        self.redirects[index].inc();
    }

    /// Counts a store failure met by `operation`.
    pub(crate) fn store_error(&self, operation: &'static str) {
        self.store_errors
            .get_or_create(&OperationLabels { operation })
            .inc();
    }

    /// The counters of one cache.
    pub(crate) fn cache(&self, cache: CacheName) -> &CacheCounters {
        match cache {
            CacheName::Links => &self.link_cache,
            CacheName::Keys => &self.key_cache,
        }
    }

    /// Every metric, in `format`.
    pub fn encode(&self, format: Format) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        match format {
            Format::OpenMetrics => text,
            Format::Classic => classic(&text),
        }
    }
}

/// OpenMetrics text (as prometheus-client writes it: `# HELP` and `# TYPE` before each
/// family's samples, no exemplars) in the classic format: a counter family takes its samples'
/// `_total` name in its `# HELP` and `# TYPE` lines, `# UNIT`, `# EOF` and `_created` samples
/// go, `unknown` is `untyped`. Samples are otherwise written alike in both formats.
fn classic(open_metrics: &str) -> String {
    let counters: std::collections::HashSet<&str> = open_metrics
        .lines()
        .filter_map(|line| line.strip_prefix("# TYPE ")?.strip_suffix(" counter"))
        .collect();
    let mut out = String::with_capacity(open_metrics.len() + 16 * counters.len());
    for line in open_metrics.lines() {
        if line == "# EOF" || line.starts_with("# UNIT ") {
            continue;
        }
        let descriptor = ["# HELP ", "# TYPE "]
            .into_iter()
            .find_map(|tag| Some((tag, line.strip_prefix(tag)?)));
        match descriptor {
            Some((tag, rest)) => {
                let (name, after) = rest.split_once(' ').unwrap_or((rest, ""));
                out.push_str(tag);
                out.push_str(name);
                if counters.contains(name) {
                    out.push_str("_total");
                }
                out.push(' ');
                out.push_str(if tag == "# TYPE " && after == "unknown" {
                    "untyped"
                } else {
                    after
                });
            }
            None => {
                let name = line.split(['{', ' ']).next().unwrap_or_default();
                if name
                    .strip_suffix("_created")
                    .is_some_and(|family| counters.contains(family))
                {
                    continue;
                }
                out.push_str(line);
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Format, Metrics};

    #[test]
    fn a_scrape_gets_openmetrics_only_when_it_asks_for_it() {
        let prometheus = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;\
                          version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
        assert_eq!(Format::negotiate(Some(prometheus)), Format::OpenMetrics);
        assert_eq!(
            Format::negotiate(Some("application/openmetrics-text")),
            Format::OpenMetrics
        );
        for classic in [
            None,
            Some("*/*"),
            Some("text/plain"),
            Some("text/plain;version=0.0.4;q=1,application/openmetrics-text;q=0.5"),
            Some("application/openmetrics-text;q=0"),
            Some("application/json"),
        ] {
            assert_eq!(Format::negotiate(classic), Format::Classic, "{classic:?}");
        }
    }

    #[test]
    fn counters_are_named_as_each_format_wants() {
        let metrics = Metrics::new();
        metrics.request("chains.create", 201, 0.01);
        let open = metrics.encode(Format::OpenMetrics);
        assert!(open.contains("# TYPE linkapi_requests counter\n"), "{open}");
        assert!(open.ends_with("# EOF\n"));
        let classic = metrics.encode(Format::Classic);
        assert!(
            classic.contains("# HELP linkapi_requests_total HTTP requests"),
            "{classic}"
        );
        assert!(
            classic.contains("# TYPE linkapi_requests_total counter\n"),
            "{classic}"
        );
        assert!(
            classic
                .contains("linkapi_requests_total{operation=\"chains.create\",status=\"201\"} 1\n")
        );
        assert!(classic.contains("# TYPE linkapi_open_connections gauge\n"));
        assert!(classic.contains("# TYPE linkapi_request_duration_seconds histogram\n"));
        assert!(!classic.contains("# EOF"));
        // Every family has its help and type, in both.
        for text in [&open, &classic] {
            let helps = text.lines().filter(|l| l.starts_with("# HELP ")).count();
            let types = text.lines().filter(|l| l.starts_with("# TYPE ")).count();
            assert_eq!(helps, types);
            assert!(helps >= 12, "{text}");
        }
    }
}
