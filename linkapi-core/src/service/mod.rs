//! Services: every decision of the API. Handlers call these with a [`Principal`] that came
//! from the request's key; services call the [`Store`].
//!
//! [`App`] is a cheap clonable handle holding the store, the clock, the configuration and the
//! in-memory state the redirect path reads (domain directory and link cache), the key cache,
//! the visit pipeline, the metrics and the rate limiter. Methods are grouped by area in the submodules.
//!
//! Every write goes through `App::transact`: a transaction body (see [`crate::store`]) whose
//! published changes are applied to this instance's caches right after the commit, and reach
//! other instances through the store's change feed, which [`App::start`] follows.

mod admin;
mod auth;
mod bulk;
mod chain_checks;
mod chain_qr;
mod chain_writes;
mod chains;
mod channels;
mod config;
mod conversions;
mod domains;
mod engine;
mod groups;
mod imports;
mod link_options;
mod listings;
mod orphans;
mod page_chains;
mod plain_creates;
mod quota;
mod redirects;
mod rules;
mod stats;
mod templates;
mod text;
mod upload_session;
mod uploads;
mod visitor_secret;
mod webhooks;
mod workchat;

use std::sync::{Arc, Weak};
use std::time::Duration;

pub use crate::model::ChainView;
pub use crate::store::ChainFilter;
pub use admin::{UserEdit, UserOverview};
pub use auth::{BootstrapKey, Principal, RecoveryKey, hash_key, recovery_key};
pub use bulk::{BulkAnswer, BulkAnswered, BulkItem, ItemError};
pub use chain_checks::CreatedChain;
pub use chains::{NewShortChain, ShortChainPatch};
use channels::PageAnswer;
pub use config::{AppConfig, ClientAddressHeader};
pub use conversions::{ConversionReport, ReportedConversion};
pub use domains::normalize_host;
pub use engine::classify::{GeoDatabase, GeoDatabaseError};
pub use engine::idempotency::{
    IDEMPOTENCY_WINDOW, IdempotencyKey, KeptAnswer, RUN_STALE_AFTER, Receipt, RunReceipt,
    is_idempotency_key,
};
pub use engine::ratelimit::{RateLimit, RateState};
pub use engine::visitors::{VisitRequest, is_bot_agent};
pub use imports::{ImportChain, ImportOutcome, ImportResult};
pub use link_options::OptionsInput;
pub use listings::{ChainListing, EXPORT_PAGE, ExportedChain};
pub use orphans::{OrphanItem, OrphanStats};
pub use page_chains::{
    ChannelSpec, PageChainInput, PageChainView, PageChains, app_link, fixed_destination,
};
pub use redirects::{Location, VisitAnswer};
pub use rules::{RuleInput, check_rules};
pub use stats::{
    BreakdownItem, ChainBreakdown, ChainStats, DEFAULT_BREAKDOWN_LIMIT, DailyClicks, UserStats,
};
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use templates::check_template_body;
pub use templates::{BUILT_IN_STYLES, NewTemplateInput, TemplateListing};
pub(crate) use text::{TextRule, check_text, hex, is_bidi_control};
pub use upload_session::{ExtraFiles, MAX_FILES_PER_REQUEST, UploadOutcome, UploadSession};
pub use uploads::{HostedFile, StagedUpload, UploadConfig, display_name};
pub use webhooks::{
    MAX_WEBHOOKS_PER_USER, NewWebhookInput, PREVIOUS_SECRET_GRACE, RETRY_DELAYS, RETRY_WINDOW,
    WebhookConfig, WebhookEdit, retry_delay,
};
pub use workchat::{
    StoredWorkchat, TRANSFERS_PER_PAGE, TransferRecord, TransferResults, WorkchatProvider,
};

use crate::clock::Clock;
use crate::error::{Error, Result, names};
use crate::locks::Unpoisoned;
use crate::metrics::Metrics;
use crate::model::{DomainId, Timestamp};
use crate::store::{
    BoxFuture, FeedEvent, Invalidation, KeyGrant, Store, StoreError, StoreResult, Tx, Unique,
};

pub(crate) use engine::BodyError;

/// Templates kept in memory for jump pages; there are few.
const TEMPLATE_CACHE_CAPACITY: usize = 1_000;

/// Page chains whose channel rotation this instance remembers: an evicted one starts its
/// rotation over, which costs a store read.
const ROTATIONS_CAPACITY: usize = 100_000;

/// How long start-up waits for the change feed to connect.
const FEED_START_TIMEOUT: Duration = Duration::from_secs(10);

/// How long to wait before retrying a resync the store could not serve.
const RESYNC_RETRY: Duration = Duration::from_millis(500);

/// Applies what the store's change feed says, for as long as the app lives. A notice that
/// cannot be applied (the store is down while the domain directory must be reloaded) turns
/// into a resync, retried until it succeeds.
async fn apply_feed(app: Weak<Inner>, mut notices: tokio::sync::mpsc::Receiver<FeedEvent>) {
    let mut pending_resync = false;
    loop {
        let notice = if pending_resync {
            tokio::time::sleep(RESYNC_RETRY).await;
            Some(FeedEvent::Resync)
        } else {
            // Wake now and then to notice that the app is gone.
            match tokio::time::timeout(Duration::from_secs(1), notices.recv()).await {
                Ok(Some(notice)) => Some(notice),
                Ok(None) => return,
                Err(_) => None,
            }
        };
        let Some(inner) = app.upgrade() else { return };
        let Some(notice) = notice else { continue };
        match (App { inner }).apply_notice(&notice).await {
            Ok(()) => pending_resync = false,
            Err(err) => {
                tracing::warn!(error = %err, ?notice, "applying a change notice failed; will resync");
                pending_resync = true;
            }
        }
    }
}

/// The service layer. Clone it freely: clones share everything.
#[derive(Clone)]
pub struct App {
    inner: Arc<Inner>,
}

struct Inner {
    /// The database (SQLite, or PostgreSQL shared by every instance) behind the store traits
    /// of each aggregate. Rules that must hold across instances (quotas, visit limits, unique
    /// codes, idempotency) are enforced in its statements, never in this process's memory.
    store: Arc<dyn Store>,
    /// "Now" for every rule that reads the time (expiry, quota days, statistics days); a
    /// `ManualClock` in tests.
    clock: Arc<dyn Clock>,
    /// Deployment settings, fixed for the life of the `App`.
    config: AppConfig,
    /// The domain chains are created on when a request names none.
    default_domain: DomainId,
    /// Domains by host and the link cache: what redirects read instead of the database.
    links: redirects::LinkCache,
    /// Keys by the hash of their secret: what authentication reads instead of the database.
    /// Revocations clear it here and, through the change feed, on every instance.
    keys: engine::cache::CoherentCache<String, KeyGrant>,
    /// Adds visits up in memory and writes the sums off the redirect path.
    visits: engine::visits::VisitCounter,
    /// The secret visitor keys are made with.
    visitor_keys: engine::visitors::VisitorKeys,
    /// What each user agent is (bot or not, device, OS, browser), remembered per agent.
    agents: engine::classify::Agents,
    /// What `/metrics` shows: this `App`'s own registry, so several servers in one process
    /// (the tests) never mix their counts.
    metrics: Arc<Metrics>,
    /// Per-key token buckets of this instance (`config.rate_limit`); `None` when requests are
    /// not rate limited.
    limiter: Option<engine::ratelimit::KeyLimiter>,
    /// Where uploaded bytes live: a local directory or an S3-compatible bucket
    /// (`config.uploads.backend`); the database holds only their records.
    blobs: crate::blob::BlobStore,
    /// Renders jump pages (messaging-app and card chains) from templates, every value
    /// escaped.
    pages: crate::pages::Pages,
    /// Templates by id, `None` for ids with no template: what jump pages render with.
    templates:
        engine::cache::CoherentCache<crate::model::TemplateId, Option<crate::model::Template>>,
    /// Per-chain channel rotation state of this instance.
    rotations: engine::rotation::Rotations,
    /// Where the work-chat queries (transfer results, acquisition links) read from: today the
    /// records an administrator loaded into the store.
    workchat: Arc<dyn WorkchatProvider>,
    /// Whether the key and link caches may be trusted: how recently this instance caught up
    /// with the other instances' changes.
    freshness: engine::freshness::Freshness,
    /// Where plain creates wait to be inserted together; `None` where the store runs one
    /// write at a time anyway (SQLite), which batches them itself.
    plain_creates: Option<plain_creates::PlainCreates>,
    /// Who has an enabled webhook endpoint, and the delivery worker's wake-up.
    webhook_users: webhooks::WebhookUsers,
    /// The HTTP client webhook deliveries are posted with (private addresses refused unless
    /// `config.webhooks.allow_private`).
    webhook_http: webhooks::HttpClient,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

impl App {
    /// Starts the services on `store`: registers the default domain if it is new, loads the
    /// domain directory, loads (or makes) the visitor secret and starts the visit pipeline.
    /// Must run inside a tokio runtime.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn start(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        config: AppConfig,
    ) -> Result<App> {
        let host = normalize_host(&config.default_host).ok_or_else(|| {
            Error::bad_request(
                names::INVALID_DOMAIN_MALFORMED,
                format!("default host {:?} is not a host name", config.default_host),
            )
        })?;
        // Listen for other instances' changes before anything is cached, so none is missed.
        let mut notices = store.feed();
        let freshness = if notices.is_some() {
            engine::freshness::Freshness::from_feed()
        } else {
            engine::freshness::Freshness::always()
        };
        if let Some(feed) = notices.as_mut() {
            match tokio::time::timeout(FEED_START_TIMEOUT, feed.recv()).await {
                // The feed opens with a resync; nothing is cached yet, so there is nothing to
                // drop, and every change from here on will be heard.
                Ok(Some(FeedEvent::Resync)) => {}
                _ => tracing::warn!(
                    "not yet listening for other instances' changes; starting anyway \
                     (caches are dropped once the listener connects)"
                ),
            }
        }
        if notices.is_none() {
            // A store no other instance shares: creates in progress under an idempotency key
            // were this process's predecessor's, which is gone, so a retry may resume them now.
            crate::store::transact(&*store, |tx| Box::pin(tx.release_idempotency_runs())).await?;
        }
        let default_domain =
            domains::register_default_domain(&*store, &*clock, &config, host).await?;
        let links = redirects::LinkCache::new(config.link_cache_bytes);
        links.load_domains(store.domains().await?);
        links.load_halted_owners(store.users_without_redirects().await?);
        let visitor_secret = Self::visitor_secret(&*store, &*clock).await?;
        let metrics = Arc::new(Metrics::new());
        let visits = engine::visits::VisitCounter::start(
            store.clone(),
            clock.clone(),
            engine::visits::VisitSettings {
                flush_interval: config.visit_flush_interval,
                max_pending: config.max_pending_visits,
            },
            metrics.visits.clone(),
        );
        let limiter = config.rate_limit.map(engine::ratelimit::KeyLimiter::new);
        let blobs = Self::open_blobs(&config.uploads.backend)?;
        let sweep_every = config.uploads.sweep_interval;
        let store_for_workchat = store.clone();
        let batched = !store.writes_one_at_a_time();
        let webhook_users = webhooks::WebhookUsers::new(store.users_with_webhooks().await?);
        let webhook_http = webhooks::http_client(config.webhooks.allow_private)?;
        let app = App {
            inner: Arc::new_cyclic(|app| Inner {
                keys: engine::cache::CoherentCache::new(config.key_cache_capacity),
                store,
                clock,
                config,
                default_domain,
                links,
                visits,
                visitor_keys: engine::visitors::VisitorKeys::new(visitor_secret),
                agents: engine::classify::Agents::new(),
                metrics,
                limiter,
                blobs,
                pages: crate::pages::Pages::new(),
                templates: engine::cache::CoherentCache::new(TEMPLATE_CACHE_CAPACITY),
                rotations: engine::rotation::Rotations::new(ROTATIONS_CAPACITY),
                workchat: Arc::new(StoredWorkchat(store_for_workchat)),
                freshness,
                plain_creates: batched.then(|| plain_creates::PlainCreates::start(app.clone())),
                webhook_users,
                webhook_http,
            }),
        };
        webhooks::start_delivery(&app);
        tokio::spawn(periodically(
            Arc::downgrade(&app.inner),
            sweep_every,
            "sweeping uploads",
            |app| Box::pin(app.sweep_uploads()),
        ));
        tokio::spawn(periodically(
            Arc::downgrade(&app.inner),
            IDEMPOTENCY_PRUNE_INTERVAL,
            "forgetting expired idempotency keys",
            |app| Box::pin(async move { app.prune_idempotency_keys().await.map(drop) }),
        ));
        if let Some(notices) = notices {
            tokio::spawn(apply_feed(Arc::downgrade(&app.inner), notices));
        }
        Ok(app)
    }

    /// Runs a transaction body (see [`crate::store`]) and, once it committed, applies the
    /// changes it published to this instance's caches, so this instance answers with the new
    /// state as soon as the caller hears the write succeeded.
    ///
    /// # Errors
    /// The body's error, or the store's.
    pub(crate) async fn transact<T, F>(&self, body: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'t> FnMut(&'t mut dyn Tx) -> BoxFuture<'t, StoreResult<T>> + Send + 'static,
    {
        let (value, changes) = crate::store::transact(self.store(), body).await?;
        self.applied(&changes).await;
        Ok(value)
    }

    /// Applies `changes`, committed a moment ago, to this instance's caches.
    pub(crate) async fn applied(&self, changes: &[Invalidation]) {
        for change in changes {
            if let Err(err) = self.apply_change(change).await {
                // The write stands; only the domain directory could not be reloaded. Start
                // over from the store so nothing stale is kept.
                tracing::warn!(error = %err, "applying a committed change failed; resyncing");
                self.resync_soon();
            }
        }
    }

    /// [`App::transact`] for a body that checks a rule of the service: the body fails with
    /// [`BodyError::Rule`] to stop the transaction (everything it wrote rolls back) and that
    /// error is what the caller gets; store failures stay [`BodyError::Store`], so the store
    /// still sees (and retries) contention.
    ///
    /// # Errors
    /// The rule's error, or the store's.
    pub(crate) async fn transact_checked<T, F>(&self, mut body: F) -> Result<T, BodyError>
    where
        T: Send + 'static,
        F: for<'t> FnMut(&'t mut dyn Tx) -> BoxFuture<'t, Result<T, BodyError>> + Send + 'static,
    {
        let broken = Arc::new(std::sync::Mutex::new(None));
        let kept = broken.clone();
        let outcome = self
            .transact(move |tx| {
                let run = body(tx);
                let kept = kept.clone();
                Box::pin(async move {
                    match run.await {
                        Ok(value) => Ok(value),
                        Err(BodyError::Store(err)) => Err(err),
                        Err(BodyError::Rule(err)) => {
                            *kept.lock().unpoisoned() = Some(err);
                            Err(StoreError::Stopped)
                        }
                    }
                })
            })
            .await;
        match outcome {
            Ok(value) => Ok(value),
            Err(StoreError::Stopped) => Err(broken
                .lock()
                .unpoisoned()
                .take()
                .map_or(BodyError::Store(StoreError::Stopped), BodyError::Rule)),
            Err(err) => Err(BodyError::Store(err)),
        }
    }

    /// Drops every cache and reloads the domain directory in the background, retrying until
    /// the store answers.
    fn resync_soon(&self) {
        let app = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            while let Some(inner) = app.upgrade() {
                if (App { inner })
                    .apply_notice(&FeedEvent::Resync)
                    .await
                    .is_ok()
                {
                    return;
                }
                tokio::time::sleep(RESYNC_RETRY).await;
            }
        });
    }

    /// Writes what is still buffered (visit counts) to the store and tells the store this
    /// instance is leaving. Call after the server drained.
    pub async fn shutdown(&self) {
        if !self.flush_visits().await {
            tracing::error!(
                "the store did not take the last visit counts; they are lost with this process"
            );
        }
        self.inner.store.close().await;
    }

    /// Writes every visit counted so far; `false` when the store did not take them all (they
    /// stay pending and are retried).
    pub async fn flush_visits(&self) -> bool {
        self.inner.visits.flush().await
    }

    /// This instance's metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    /// Whether the store answers.
    ///
    /// # Errors
    /// When it does not.
    pub async fn ready(&self) -> Result<()> {
        Ok(self.inner.store.ping().await?)
    }

    /// The deployment settings.
    pub fn config(&self) -> &AppConfig {
        &self.inner.config
    }

    /// Now, by the app's clock.
    pub fn now(&self) -> Timestamp {
        self.inner.clock.now()
    }

    fn store(&self) -> &dyn Store {
        &*self.inner.store
    }

    /// The answer `who` was given under `key` in the last [`IDEMPOTENCY_WINDOW`], if any.
    ///
    /// # Errors
    /// 422 `idempotency_key_reused` when the key was used for a different request; when the
    /// store fails.
    pub async fn kept_answer(
        &self,
        who: &Principal,
        key: &IdempotencyKey,
    ) -> Result<Option<KeptAnswer>> {
        let used_after = self.now() - IDEMPOTENCY_WINDOW;
        engine::idempotency::kept_answer(self.store(), who.user_id, key, used_after).await
    }

    /// Forgets idempotency keys older than [`IDEMPOTENCY_WINDOW`]; returns how many.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn prune_idempotency_keys(&self) -> Result<u64> {
        let before = self.now() - IDEMPOTENCY_WINDOW;
        Ok(self
            .transact(move |tx| Box::pin(async move { tx.prune_idempotency_keys(before).await }))
            .await?)
    }
}

/// Maps a conflict to a 409 with the given short name; other store errors become internal.
fn conflict_as(err: StoreError, what: Unique, code: names::Name<409>, message: String) -> Error {
    match err {
        StoreError::Conflict(w) if w == what => Error::Conflict { code, message },
        other => other.into(),
    }
}

/// How often keys past [`IDEMPOTENCY_WINDOW`] are deleted.
const IDEMPOTENCY_PRUNE_INTERVAL: Duration = Duration::from_secs(60 * 60);

/// Runs `job` every `every` for as long as the app lives; a failure is logged and the job
/// runs again at its next turn.
async fn periodically(
    app: Weak<Inner>,
    every: Duration,
    what: &'static str,
    job: for<'a> fn(&'a App) -> BoxFuture<'a, Result<()>>,
) {
    loop {
        tokio::time::sleep(every).await;
        let Some(inner) = app.upgrade() else { return };
        if let Err(err) = job(&App { inner }).await {
            tracing::warn!(error = %err, "{what} failed; trying again later");
        }
    }
}
