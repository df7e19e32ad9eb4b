//! Counting a visit: classified once (a bot's or a person's, and what breakdowns and rules
//! look at), then handed to the visit pipeline with its visitor's key; and counting an orphan
//! visit, a request that reached no chain, by its domain and kind alone.

use crate::model::{ChainId, ChannelId, DIRECT, OrphanKind};
use crate::service::engine::breakdown::Traits;
use crate::service::engine::classify::{primary_language, referrer_host};
use crate::service::engine::visitors::VisitRequest;
use crate::service::engine::visits::{ClassifiedVisit, RULE_NAMES};

/// What a request of `/{code}` that found no chain asked for: a code no live chain has, or a
/// path no code can be (characters codes do not have, too long).
pub(super) fn orphan_kind(code: &str) -> OrphanKind {
    match crate::codes::validate_code(code) {
        Ok(()) | Err(crate::codes::CodeError::Reserved(_)) => OrphanKind::UnknownCode,
        Err(_) => OrphanKind::ReservedPath,
    }
}

impl crate::service::App {
    /// Counts a visit of `chain_id`. Never waits on the store: the count is written within
    /// the flush interval. The redirect path counts its visits through
    /// [`App::visit`](crate::service::App::visit); this is for a program embedding the service that
    /// counts visits it served itself (and for the statistics benchmark).
    pub fn record_visit(&self, chain_id: ChainId, request: VisitRequest<'_>) {
        self.record_channel_visit(chain_id, None, request);
    }

    /// Counts a visit of `chain_id` that got `channel` (a channel without a limit; limited
    /// ones were counted when the visit was taken).
    pub(crate) fn record_channel_visit(
        &self,
        chain_id: ChainId,
        channel: Option<ChannelId>,
        request: VisitRequest<'_>,
    ) {
        let visit = self.classify_visit(&request);
        self.record_classified(chain_id, channel, &request, &visit, None);
    }

    /// Counts an orphan visit: a `GET` or `HEAD` of `host` that reached no chain, asking for
    /// `kind`. A host that names no domain is the default domain's, as its visits are. Costs
    /// a lookup in the domain directory and one in a small map: never the store.
    pub fn record_orphan(&self, host: &str, kind: OrphanKind) {
        let links = &self.inner.links;
        let Some((domain, _)) = links.domain_for_visit(host, self.inner.default_domain) else {
            return;
        };
        let day = self.config().calendar.day_start(self.now());
        self.inner.visits.record_orphan(domain, kind, day);
    }

    /// What a visit is: a bot's or a person's, and what its breakdowns and redirect rules
    /// look at. Once per visit.
    pub(crate) fn classify_visit(&self, request: &VisitRequest<'_>) -> ClassifiedVisit {
        let agent = self.inner.agents.class(request.user_agent);
        let bot = request.head || agent.bot;
        ClassifiedVisit {
            // A bot's referrer is counted nowhere.
            referrer: if bot {
                None
            } else {
                referrer_host(request.referer)
            },
            country: self
                .config()
                .geo
                .as_ref()
                .and_then(|geo| geo.country(request.address)),
            language: primary_language(request.accept_language),
            bot,
            agent,
        }
    }

    /// Counts a classified visit of `chain_id` that got `channel` (one without a limit), and
    /// was served by redirect rule `rule` (its position from 0), if any.
    pub(crate) fn record_classified(
        &self,
        chain_id: ChainId,
        channel: Option<ChannelId>,
        request: &VisitRequest<'_>,
        visit: &ClassifiedVisit,
        rule: Option<usize>,
    ) {
        let day = self.config().calendar.day_start(self.now());
        if visit.bot {
            self.inner.visits.record(chain_id, day, None, channel, None);
            return;
        }
        let visitor = self
            .inner
            .visitor_keys
            .key(request.address, request.user_agent);
        let traits = Traits {
            // None: the dimension's implicit value, not stored.
            values: [
                Some(visit.referrer.as_deref().unwrap_or(DIRECT)),
                Some(visit.agent.device.name()),
                Some(&visit.agent.os),
                Some(&visit.agent.browser),
                visit.country.as_ref().map(|c| c.as_str()),
                visit.language.as_ref().map(|l| l.as_str()),
                rule.and_then(|at| RULE_NAMES.get(at)).copied(),
            ],
        };
        self.inner
            .visits
            .record(chain_id, day, Some(visitor), channel, Some(&traits));
    }
}
