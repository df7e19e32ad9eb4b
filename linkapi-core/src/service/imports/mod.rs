//! Imports of short chains (`POST /chains/import`): links brought over from another shortener,
//! or from an export, with their own codes, creation times, expiry and visit totals.
//!
//! An import is idempotent by (domain, code): an item whose code a chain of the caller's
//! already has on that domain with the same target is `exists` and changes nothing, so a
//! second run (or a run after one was killed midway) imports nothing twice. A code taken by
//! anything else is a `clash`, reported and never renamed. Items go in runs, each one
//! transaction as in a bulk create (`service::bulk`), counted against the daily quota like
//! any create, so what one run committed stays committed whatever happens to the next.
//!
//! What an import keeps and what it changes: codes exactly (case and length included, within
//! the code rules), targets byte for byte when they are ASCII (non-ASCII characters are
//! percent-encoded, as browsers send them), titles with line breaks and tabs folded to spaces,
//! an expiry in the past as it is (the chain comes in expired), and visit totals as imported
//! history apart from the visits counted here. Each change is a note on the item's result.

mod fields;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use fields::{field, fold_controls, import_target, past_time};

use super::bulk::{
    Decided, FIRST_RUN_ITEMS, ItemError, RUN_BYTES, YIELD_EVERY, insert_run, next_run_items,
};
use super::chain_checks::check_title;
use super::link_options::OptionsInput;
use super::rules::{RuleInput, check_rules};
use super::{App, Principal, quota, webhooks};
use crate::clock::{LATEST, format_rfc3339};
use crate::codes::validate_code;
use crate::error::{Error, Result, names};
use crate::model::limits::MAX_BULK_CHAINS;
use crate::model::{
    Chain, ChainId, ChainKind, ChainStatus, ChainView, DomainId, EventData, EventType, GroupId,
    LinkOptions, PageViews, Timestamp,
};
use crate::store::{CodeHolder, Invalidation, NewChain};

/// One chain to import, as the caller gives it: times as text in any form
/// [`parse_flexible`](crate::clock::parse_flexible) reads (RFC 3339, `YYYY-MM-DD HH:MM:SS` in UTC, Unix seconds).
#[derive(Debug, Clone, Default)]
pub struct ImportChain {
    /// Its code, kept exactly.
    pub code: String,
    /// Host of the caller's domain; the default domain when `None`.
    pub domain: Option<String>,
    /// Destination.
    pub target_url: String,
    /// Label.
    pub title: Option<String>,
    /// 1 normal (default) or 3 disabled.
    pub status: Option<i64>,
    /// Expiry in Unix seconds, 0 permanent; a past one is kept.
    pub valid_time: Timestamp,
    /// When it was created; the time of the import when `None`.
    pub created_at: Option<String>,
    /// When it was archived, if it was.
    pub archived_at: Option<String>,
    /// Names of the caller's short-chain groups; missing ones are created.
    pub groups: Vec<String>,
    /// Redirect rules, in order.
    pub rules: Vec<RuleInput>,
    /// Visits it had before.
    pub visits: i64,
    /// Its options.
    pub options: OptionsInput,
    /// Of its `max_visits`, those it still serves; `None`: all of them.
    pub visits_left: Option<i64>,
}

/// How one item of an import ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportOutcome {
    /// Imported (in a dry run: would be).
    Imported,
    /// A chain of the caller's has the code on the domain with the same target.
    Exists,
    /// Another chain has the code on the domain.
    Clash,
    /// Not imported, for the reason given.
    Refused,
}

/// One item's result.
#[derive(Debug, Clone)]
pub struct ImportResult {
    /// The item's code, as given.
    pub code: String,
    /// Host of the domain it went to, or was meant for.
    pub domain: String,
    /// What happened.
    pub outcome: ImportOutcome,
    /// The chain imported, or the caller's chain that has the code.
    pub chain_id: Option<ChainId>,
    /// Why it was refused, or what it clashed with.
    pub error: Option<ItemError>,
    /// What was changed on the way in.
    pub notes: Vec<String>,
}

/// An item that passed the checks, waiting for its run's transaction.
struct Accepted {
    index: usize,
    new: NewChain,
    notes: Vec<String>,
}

/// What a run decided for an accepted item.
#[derive(Debug, Clone)]
enum Decision {
    /// Inserted as this chain (`None` in a dry run, which inserts nothing).
    Imported(Option<ChainId>),
    /// Its code is taken on its domain.
    Taken,
    /// Past the room left in today's quota, which is `limit` a day.
    OverQuota { limit: i64 },
}

/// What the groups named by an import's items stand for: the group, `None` for one a dry run
/// would create, or why it cannot be used.
type GroupNames = HashMap<String, std::result::Result<Option<GroupId>, ItemError>>;

impl App {
    /// Imports the caller's `items` (or, in a `dry_run`, answers what an import would do):
    /// one result per item, in order.
    ///
    /// # Errors
    /// 400 for no items or more than [`MAX_BULK_CHAINS`]; a store failure (the runs committed
    /// before it stay committed, and importing again reports them as `exists`). Anything
    /// wrong with one item is that item's result.
    pub async fn import_short_chains(
        &self,
        who: &Principal,
        items: Vec<ImportChain>,
        dry_run: bool,
    ) -> Result<Vec<ImportResult>> {
        if items.is_empty() || items.len() > MAX_BULK_CHAINS {
            return Err(Error::bad_request(
                if items.is_empty() {
                    names::INVALID_FIELD
                } else {
                    names::TOO_MANY_CHAINS
                },
                format!(
                    "chains: {} items; give 1 to {MAX_BULK_CHAINS} in one request",
                    items.len()
                ),
            ));
        }
        let now = self.now();
        let groups = self.import_groups(who, &items, dry_run).await?;
        let mut results: Vec<Option<ImportResult>> = vec![None; items.len()];
        let mut seen: HashMap<(DomainId, String), usize> = HashMap::new();
        let mut inputs = items.into_iter().enumerate().peekable();
        let mut run_items = FIRST_RUN_ITEMS;
        let mut checked = 0;
        while inputs.peek().is_some() {
            let mut run = Vec::new();
            let mut bytes = 0;
            while run.len() < run_items && bytes < RUN_BYTES {
                let Some((index, item)) = inputs.next() else {
                    break;
                };
                // The checks run on a serving thread: others queued on it get their turn.
                checked += 1;
                if checked % YIELD_EVERY == 0 {
                    tokio::task::yield_now().await;
                }
                let (code, domain) = (item.code.clone(), self.host_named(item.domain.as_deref()));
                let refused = |error: ItemError| ImportResult {
                    code: code.clone(),
                    domain: domain.clone(),
                    outcome: ImportOutcome::Refused,
                    chain_id: None,
                    error: Some(error),
                    notes: Vec::new(),
                };
                match self.import_record(who, item, now, &groups) {
                    Ok((new, notes)) => {
                        if let Some(first) = seen.get(&(new.domain_id, code.clone())) {
                            results[index] = Some(refused(ItemError {
                                code: names::DUPLICATE_CODE.as_str(),
                                message: format!(
                                    "code {code:?} is also given by item {first} of this request"
                                ),
                            }));
                            continue;
                        }
                        seen.insert((new.domain_id, code.clone()), index);
                        bytes += new.target_url.len() + new.title.len();
                        run.push(Accepted { index, new, notes });
                    }
                    Err(error) => results[index] = Some(refused(error)),
                }
            }
            if run.is_empty() {
                continue;
            }
            let items = run.len();
            let started = Instant::now();
            let decided = if dry_run {
                self.dry_run_decide(who, &run, now).await?
            } else {
                self.commit_import_run(who, &run, now).await?
            };
            run_items = next_run_items(items, started.elapsed());
            let taken = run
                .iter()
                .zip(&decided)
                .filter(|(_, d)| matches!(d, Decision::Taken))
                .map(|(a, _)| &a.new);
            let holders = self.code_holders(taken).await?;
            for (accepted, decided) in run.into_iter().zip(decided) {
                let index = accepted.index;
                results[index] = Some(self.import_result(who, accepted, decided, &holders));
            }
        }
        Ok(results.into_iter().flatten().collect())
    }

    /// The host an item names (as given, trimmed and lower-cased), or the default domain's.
    fn host_named(&self, domain: Option<&str>) -> String {
        match domain {
            Some(host) => host.trim().to_ascii_lowercase(),
            None => self
                .inner
                .links
                .domain(self.inner.default_domain)
                .map(|d| d.host.clone())
                .unwrap_or_default(),
        }
    }

    /// The groups an import's items name: the caller's short-chain groups by name, those
    /// missing created (not in a dry run).
    async fn import_groups(
        &self,
        who: &Principal,
        items: &[ImportChain],
        dry_run: bool,
    ) -> Result<GroupNames> {
        let mut named: GroupNames = HashMap::new();
        if items.iter().all(|item| item.groups.is_empty()) {
            return Ok(named);
        }
        let mut existing: HashMap<String, (GroupId, ChainKind)> = self
            .groups(who)
            .await?
            .into_iter()
            .map(|g| (g.name, (g.id, g.chain_type)))
            .collect();
        for name in items.iter().flat_map(|item| &item.groups) {
            if named.contains_key(name) {
                continue;
            }
            let group = match existing.get(name) {
                Some((id, ChainKind::Short)) => Ok(Some(*id)),
                Some((_, kind)) => Err(ItemError {
                    code: names::INVALID_GROUP.as_str(),
                    message: format!(
                        "your group {name:?} holds chains of type {}, not short chains",
                        kind.code()
                    ),
                }),
                None if dry_run => Ok(None),
                None => match self
                    .create_group(who, name, ChainKind::Short.code(), None)
                    .await
                {
                    Ok(group) => Ok(Some(group.id)),
                    // Made meanwhile by a concurrent import: it is there now.
                    Err(err) => {
                        existing = self
                            .groups(who)
                            .await?
                            .into_iter()
                            .map(|g| (g.name, (g.id, g.chain_type)))
                            .collect();
                        match existing.get(name) {
                            Some((id, ChainKind::Short)) => Ok(Some(*id)),
                            _ => Err(ItemError::from(err)),
                        }
                    }
                },
            };
            named.insert(name.clone(), group);
        }
        Ok(named)
    }

    /// One item checked: the chain it makes and the notes on what was changed on the way in.
    fn import_record(
        &self,
        who: &Principal,
        item: ImportChain,
        now: Timestamp,
        groups: &GroupNames,
    ) -> std::result::Result<(NewChain, Vec<String>), ItemError> {
        let mut notes = Vec::new();
        validate_code(&item.code)
            .map_err(|e| Error::bad_request(names::INVALID_CODE, e.to_string()))?;
        let domain_id = item
            .domain
            .as_deref()
            .map(|host| self.domain_named(who, host))
            .transpose()?;
        let domain_id = self.domain_for_create(who, domain_id)?;
        let (target_url, encoded) = import_target(&item.target_url)?;
        if encoded {
            notes.push("target_url: non-ASCII characters percent-encoded".to_owned());
        }
        let title = item.title.map(|title| {
            let folded = fold_controls(&title);
            if folded != title {
                notes.push("chain_title: line breaks and tabs made spaces".to_owned());
            }
            folded
        });
        let title = check_title(title)?.unwrap_or_default();
        let rules = check_rules(item.rules)?;
        if !(0..=LATEST).contains(&item.valid_time) {
            return Err(field(
                names::INVALID_VALID_TIME_MALFORMED,
                "valid_time must be 0 (permanent) or Unix seconds before the year 10000",
            ));
        }
        if item.valid_time != 0 && item.valid_time <= now {
            notes.push(format!(
                "expired at {}: imported expired",
                format_rfc3339(item.valid_time)
            ));
        }
        let created_at = match item.created_at.as_deref() {
            None => now,
            Some(text) => past_time("created_at", text, now)?,
        };
        let archived_at = item
            .archived_at
            .as_deref()
            .map(|text| past_time("archived_at", text, now))
            .transpose()?;
        let status = match item.status {
            None | Some(1) => ChainStatus::Normal,
            Some(3) => ChainStatus::Disabled,
            Some(other) => {
                return Err(field(
                    names::INVALID_STATUS,
                    &format!("status {other} is not 1 (normal) or 3 (disabled)"),
                ));
            }
        };
        if item.visits < 0 {
            return Err(field(names::INVALID_FIELD, "pv_history must be 0 or more"));
        }
        let options = item
            .options
            .apply(&LinkOptions::default(), item.valid_time)?;
        let visits_taken = match item.visits_left {
            None => 0,
            Some(left) if options.max_visits != 0 && (0..=options.max_visits).contains(&left) => {
                options.max_visits - left
            }
            Some(_) => {
                return Err(field(
                    names::INVALID_FIELD,
                    "visits_left must be 0 to max_visits, and only with a max_visits",
                ));
            }
        };
        let mut group_ids = Vec::with_capacity(item.groups.len());
        for name in &item.groups {
            match groups.get(name) {
                Some(Ok(Some(id))) => group_ids.push(*id),
                Some(Ok(None)) => notes.push(format!("group {name:?} would be created")),
                Some(Err(err)) => return Err(err.clone()),
                None => {
                    return Err(
                        Error::unprocessable(names::INVALID_GROUP, "a group was not read").into(),
                    );
                }
            }
        }
        let new = NewChain {
            user_id: who.user_id,
            kind: ChainKind::Short,
            sub_type: None,
            domain_id,
            code: item.code,
            title,
            target_url,
            group_ids,
            valid_time: item.valid_time,
            created_at,
            jump: None,
            channels: Vec::new(),
            rules,
            status,
            archived_at,
            imported_visits: item.visits,
            options,
            visits_taken,
        };
        Ok((new, notes))
    }

    /// Inserts one run in one transaction within the quota's room, with its webhook events:
    /// what happened to each item, in the run's order.
    async fn commit_import_run(
        &self,
        who: &Principal,
        run: &[Accepted],
        now: Timestamp,
    ) -> Result<Vec<Decision>> {
        let (day, _) = self.quota_day(now);
        let (user, default_quota) = (who.user_id, self.config().daily_create_quota);
        let code_length = self.config().code_length;
        let accepted: Arc<Vec<(usize, NewChain, Option<String>)>> = Arc::new(
            run.iter()
                .enumerate()
                .map(|(at, a)| (at, a.new.clone(), Some(a.new.code.clone())))
                .collect(),
        );
        let decided = self
            .transact_checked(move |tx| {
                let accepted = accepted.clone();
                Box::pin(async move {
                    let (limit, room) = quota::hold_room(tx, user, day, default_quota).await?;
                    let decided = insert_run(tx, &accepted, room, code_length).await?;
                    let created: Vec<&Chain> = decided
                        .iter()
                        .filter_map(|(_, d)| match d {
                            Decided::Created(chain) => Some(chain.as_ref()),
                            _ => None,
                        })
                        .collect();
                    quota::count_run(tx, user, day, created.len() as i64).await?;
                    if !created.is_empty() {
                        tx.publish_after_commit(Invalidation::MissingLinks).await?;
                        let to = tx
                            .webhook_subscribers(user, EventType::ChainCreated)
                            .await?;
                        for chain in created.into_iter().filter(|_| !to.is_empty()) {
                            let view = ChainView {
                                status: chain.status_at(now),
                                chain: chain.clone(),
                                views: PageViews::default(),
                            };
                            let data = EventData::Chain(&view);
                            webhooks::emit_to(tx, &to, user, EventType::ChainCreated, now, data)
                                .await?;
                        }
                    }
                    Ok((decided, limit))
                })
            })
            .await
            .map_err(Error::from)?;
        let (decided, limit) = decided;
        self.events_committed(user);
        let mut in_order = vec![Decision::Taken; run.len()];
        for (at, decided) in decided {
            if let Some(slot) = in_order.get_mut(at) {
                *slot = match decided {
                    Decided::Created(chain) => Decision::Imported(Some(chain.id)),
                    Decided::OverQuota => Decision::OverQuota { limit },
                    // Every code is the item's own: none is drawn, so none runs out.
                    Decided::CodeTaken(_) | Decided::NoFreeCode => Decision::Taken,
                };
            }
        }
        Ok(in_order)
    }

    /// What [`Self::commit_import_run`] would decide, writing nothing: codes taken are
    /// taken, and the items past the room left in today's quota are over it.
    async fn dry_run_decide(
        &self,
        who: &Principal,
        run: &[Accepted],
        now: Timestamp,
    ) -> Result<Vec<Decision>> {
        let (day, _) = self.quota_day(now);
        let (user, default_quota) = (who.user_id, self.config().daily_create_quota);
        // The room is read as a run reads it (adding nothing to the day's count).
        let (limit, mut room) = self
            .transact_checked(move |tx| {
                Box::pin(async move { Ok(quota::hold_room(tx, user, day, default_quota).await?) })
            })
            .await
            .map_err(Error::from)?;
        let holders = self.code_holders(run.iter().map(|a| &a.new)).await?;
        Ok(run
            .iter()
            .map(|accepted| {
                let new = &accepted.new;
                if holders.contains_key(&(new.domain_id, new.code.clone())) {
                    Decision::Taken
                } else if room == 0 {
                    Decision::OverQuota { limit }
                } else {
                    room -= 1;
                    Decision::Imported(None)
                }
            })
            .collect())
    }

    /// The chains holding the codes of `chains` on their domains: one read a domain.
    async fn code_holders<'a>(
        &self,
        chains: impl Iterator<Item = &'a NewChain>,
    ) -> Result<HashMap<(DomainId, String), CodeHolder>> {
        let mut by_domain: HashMap<DomainId, Vec<String>> = HashMap::new();
        for new in chains {
            by_domain
                .entry(new.domain_id)
                .or_default()
                .push(new.code.clone());
        }
        let mut holders = HashMap::new();
        for (domain, codes) in by_domain {
            for holder in self.store().code_holders(domain, &codes).await? {
                holders.insert((domain, holder.code.clone()), holder);
            }
        }
        Ok(holders)
    }

    /// The result of an accepted item from what its run decided and who holds the codes
    /// taken.
    fn import_result(
        &self,
        who: &Principal,
        accepted: Accepted,
        decided: Decision,
        holders: &HashMap<(DomainId, String), CodeHolder>,
    ) -> ImportResult {
        let Accepted { new, notes, .. } = accepted;
        let mut result = ImportResult {
            domain: self
                .inner
                .links
                .domain(new.domain_id)
                .map(|d| d.host.clone())
                .unwrap_or_default(),
            code: new.code.clone(),
            outcome: ImportOutcome::Imported,
            chain_id: None,
            error: None,
            notes,
        };
        match decided {
            Decision::Imported(chain_id) => result.chain_id = chain_id,
            Decision::OverQuota { limit } => {
                let (_, retry_after) = self.quota_day(self.now());
                result.outcome = ImportOutcome::Refused;
                result.error = Some(Error::QuotaExceeded { limit, retry_after }.into());
            }
            Decision::Taken => {
                let holder = holders.get(&(new.domain_id, new.code.clone()));
                (result.outcome, result.chain_id, result.error) =
                    taken(who, holder, &new.code, &new.target_url);
            }
        }
        result
    }
}

/// What an item whose `code` `holder` has comes to: `exists` when it is the caller's short
/// chain with `target`, else a `clash` (naming the chain when it is the caller's).
fn taken(
    who: &Principal,
    holder: Option<&CodeHolder>,
    code: &str,
    target: &str,
) -> (ImportOutcome, Option<ChainId>, Option<ItemError>) {
    let clash = |message: String| {
        Some(ItemError {
            code: names::CODE_TAKEN.as_str(),
            message,
        })
    };
    match holder {
        Some(h) if h.deleted => (
            ImportOutcome::Clash,
            None,
            clash(format!(
                "code {code:?} was a deleted chain's, and codes are never reused"
            )),
        ),
        Some(h) if h.user_id == who.user_id => {
            if h.kind == ChainKind::Short && h.target_url == target {
                (ImportOutcome::Exists, Some(h.chain_id), None)
            } else {
                (
                    ImportOutcome::Clash,
                    Some(h.chain_id),
                    clash(format!(
                        "your chain {} has code {code:?} here, with another target",
                        h.chain_id
                    )),
                )
            }
        }
        Some(_) => (
            ImportOutcome::Clash,
            None,
            clash(format!(
                "code {code:?} is taken on this domain by another account"
            )),
        ),
        // Taken when inserted, gone by the time it was read: deleted meanwhile.
        None => (
            ImportOutcome::Clash,
            None,
            clash(format!("code {code:?} is taken on this domain")),
        ),
    }
}
