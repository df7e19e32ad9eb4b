//! Writing chains, every kind alike: the one owner of inserting, looking up, editing,
//! deleting and viewing a caller's chains. The areas (`chains` for short chains, `bulk`,
//! `page_chains` for messaging-app, card and work-chat chains, `listings`) call these
//! `pub(crate)` methods and no helper of each other's; the layers test holds them to it.
//!
//! A create is checked by its area, then handed to [`App::insert_new_chain`]: counted against
//! the daily quota (`quota`), inserted with its custom code or a random one, its answer recorded
//! under its idempotency key and its webhook event written in the same transaction; a plain
//! chain under no key goes with the other plain creates of the moment (`plain_creates`).

use std::collections::HashMap;

use super::chain_checks::{CreatedChain, code_taken, no_free_code, random_codes};
use super::engine::idempotency::{self, Receipt};
use super::quota::Counted;
use super::templates::check_template_limit;
use super::webhooks;
use super::{App, BodyError, Principal};
use crate::error::{Error, Result, names};
use crate::model::{
    Chain, ChainId, ChainKind, ChainView, DomainId, DomainStatus, EventData, EventType, GroupId,
    PageViews, UserId,
};
use crate::store::{ChainPatch, Invalidation, NewChain, StoreError, Unique};

impl App {
    /// Whether `new` is a plain chain: no groups, jump settings or channels, and an owner with
    /// no webhook endpoint, so nothing but the chain goes in its transaction (the store can
    /// insert it as one statement, or with the other plain creates of the moment).
    fn is_plain(&self, new: &NewChain) -> bool {
        new.group_ids.is_empty()
            && new.jump.is_none()
            && new.channels.is_empty()
            && !self.emits_webhooks(new.user_id)
    }

    /// The domain a new chain goes on: the one asked for if the caller may use it and it is
    /// effective, else the default domain.
    pub(crate) fn domain_for_create(
        &self,
        who: &Principal,
        domain_id: Option<DomainId>,
    ) -> Result<DomainId> {
        let domain_id = domain_id.unwrap_or(self.inner.default_domain);
        // From the domain directory, which every domain change (on any instance) reloads.
        let domain = self
            .inner
            .links
            .domain(domain_id)
            .filter(|d| d.is_visible_to(who.user_id))
            .ok_or_else(|| {
                Error::unprocessable(
                    names::INVALID_DOMAIN,
                    format!("no domain {domain_id} for you"),
                )
            })?;
        if domain.status == DomainStatus::NotEffective {
            return Err(Error::unprocessable(
                names::DOMAIN_NOT_EFFECTIVE,
                format!("domain {} is not effective", domain.host),
            ));
        }
        Ok(domain_id)
    }

    /// Inserts a validated chain with `code`, or a random code when `None`; records the
    /// answer on `receipt` in the same transaction. Where writes commit on their own, a chain
    /// with no groups, jump settings or channels under no key goes in with the other plain
    /// creates of the moment (`service::plain_creates`).
    pub(crate) async fn insert_new_chain(
        &self,
        mut new: NewChain,
        code: Option<String>,
        receipt: Option<&Receipt<CreatedChain>>,
    ) -> Result<CreatedChain> {
        if let Some(queue) = &self.inner.plain_creates
            && receipt.is_none()
            && self.is_plain(&new)
        {
            let custom = code.is_some();
            new.code = code.unwrap_or_default();
            return self.insert_plain_batched(queue, new, custom).await;
        }
        self.insert_new_chain_alone(new, code, receipt).await
    }

    /// [`App::insert_new_chain`] on its own: counted against the quota, inserted, and given
    /// back its place if refused.
    pub(crate) async fn insert_new_chain_alone(
        &self,
        mut new: NewChain,
        code: Option<String>,
        receipt: Option<&Receipt<CreatedChain>>,
    ) -> Result<CreatedChain> {
        let counted = self.count_creation(new.user_id, new.created_at).await?;
        let created = match code {
            Some(code) => {
                new.code = code;
                self.insert_chain(new, receipt, counted).await
            }
            None => self.insert_with_random_code(new, receipt, counted).await,
        };
        // Only a create that surely did not happen gives its place back: one that met a store
        // failure may have committed (its commit's outcome unknown), and then the place is used.
        if let Err(err) = &created
            && !err.is_store_failure()
        {
            self.release_creation(counted).await;
        }
        created
    }

    /// Inserts a chain, counted against its owner's daily quota as `counted` says (see
    /// `service::quota`), in one transaction. Returns the chain and the owner's count of chains
    /// created today, this one included. An idempotency key's claim is the transaction's
    /// first write and its answer the last.
    async fn insert_chain(
        &self,
        new: NewChain,
        receipt: Option<&Receipt<CreatedChain>>,
        counted: Counted,
    ) -> Result<CreatedChain> {
        if let (None, Some(created_today)) = (receipt, counted.reserved())
            && self.is_plain(&new)
        {
            return self.insert_plain_chain(new, created_today).await;
        }
        let code = new.code.clone();
        let default_quota = self.inner.config.daily_create_quota;
        let template_limit = self.config().template_limit;
        let template = new
            .jump
            .as_ref()
            .map(|j| j.template_id)
            .filter(|t| t.0 != 0);
        let receipt = receipt.cloned();
        let inserted = self
            .transact_checked(move |tx| {
                let new = new.clone();
                let receipt = receipt.clone();
                Box::pin(async move {
                    let user = new.user_id;
                    let now = new.created_at;
                    idempotency::claim(receipt.as_ref(), tx, now).await?;
                    if let Some(template) = template {
                        check_template_limit(tx, user, template, template_limit).await?;
                    }
                    let chain = tx.insert_chain(new).await?;
                    let created_today = counted.count(tx, user, default_quota).await?;
                    tx.publish_after_commit(Invalidation::Link {
                        domain: chain.domain.id,
                        code: chain.code.clone(),
                    })
                    .await?;
                    let created = CreatedChain {
                        view: ChainView {
                            status: chain.status_at(now),
                            chain,
                            views: PageViews::default(),
                        },
                        created_today,
                    };
                    let data = EventData::Chain(&created.view);
                    webhooks::emit(tx, user, EventType::ChainCreated, now, data).await?;
                    idempotency::record(receipt.as_ref(), tx, &created).await?;
                    Ok(created)
                })
            })
            .await;
        if let Ok(created) = &inserted {
            self.events_committed(created.view.chain.user_id);
        }
        match inserted {
            Ok(inserted) => Ok(inserted),
            Err(BodyError::Rule(e)) => Err(e),
            Err(BodyError::Store(StoreError::Conflict(Unique::ChainCode))) => {
                Err(code_taken(&code))
            }
            Err(BodyError::Store(e)) => Err(e.into()),
        }
    }

    /// [`App::insert_chain`] for a chain with no groups, jump settings or channels, under no
    /// idempotency key, whose quota is already reserved: nothing else goes in its transaction,
    /// so the store commits it as one statement.
    async fn insert_plain_chain(&self, new: NewChain, created_today: i64) -> Result<CreatedChain> {
        let code = new.code.clone();
        let now = new.created_at;
        let inserted = self.store().insert_plain_chains(vec![new]).await?;
        let Some(chain) = inserted.into_iter().next().flatten() else {
            return Err(code_taken(&code));
        };
        let link = Invalidation::Link {
            domain: chain.domain.id,
            code: chain.code.clone(),
        };
        self.applied(&[link]).await;
        Ok(CreatedChain {
            view: ChainView {
                status: chain.status_at(now),
                chain,
                views: PageViews::default(),
            },
            created_today,
        })
    }

    async fn insert_with_random_code(
        &self,
        mut new: NewChain,
        receipt: Option<&Receipt<CreatedChain>>,
        counted: Counted,
    ) -> Result<CreatedChain> {
        for code in random_codes(self.inner.config.code_length) {
            new.code = code;
            match self.insert_chain(new.clone(), receipt, counted).await {
                Err(Error::Conflict { .. }) => continue,
                other => return other,
            }
        }
        Err(no_free_code())
    }

    /// Checks that `group` is the caller's and holds chains of `kind`.
    pub(crate) async fn group_for_chain(
        &self,
        who: &Principal,
        group: GroupId,
        kind: ChainKind,
    ) -> Result<GroupId> {
        let group = self
            .store()
            .group(who.user_id, group)
            .await?
            .ok_or_else(|| {
                Error::unprocessable(names::INVALID_GROUP, format!("no group {group}"))
            })?;
        if group.chain_type != kind {
            return Err(Error::unprocessable(
                names::INVALID_GROUP,
                format!(
                    "group {} holds chains of type {}, not {}",
                    group.id,
                    group.chain_type.code(),
                    kind.code()
                ),
            ));
        }
        Ok(group.id)
    }

    pub(crate) async fn view(&self, chains: Vec<Chain>) -> Result<Vec<ChainView>> {
        let now = self.now();
        let ids: Vec<ChainId> = chains.iter().map(|c| c.id).collect();
        let mut views: HashMap<ChainId, PageViews> = self
            .store()
            .page_views(&ids, self.config().calendar.day_start(now))
            .await?;
        Ok(chains
            .into_iter()
            .map(|chain| ChainView {
                status: chain.status_at(now),
                views: views.remove(&chain.id).unwrap_or_default(),
                chain,
            })
            .collect())
    }

    pub(crate) async fn view_one(&self, chain: Chain) -> Result<ChainView> {
        self.view(vec![chain])
            .await?
            .pop()
            .ok_or(Error::NotFound("chain"))
    }

    /// One of the caller's live chains of one of `kinds`; 404 for anything else.
    pub(crate) async fn own_chain(
        &self,
        who: &Principal,
        id: ChainId,
        kinds: &[ChainKind],
    ) -> Result<Chain> {
        self.store()
            .chain(who.user_id, id)
            .await?
            .filter(|c| kinds.contains(&c.kind))
            .ok_or(Error::NotFound("chain"))
    }

    /// The caller's live chain of one of `kinds` with `code`; `domain` picks among equal
    /// codes on several domains.
    pub(crate) async fn find_by_code_of(
        &self,
        who: &Principal,
        code: &str,
        domain: Option<DomainId>,
        kinds: &[ChainKind],
    ) -> Result<Chain> {
        let mut found: Vec<Chain> = self
            .store()
            .chains_by_code(who.user_id, code)
            .await?
            .into_iter()
            .filter(|c| kinds.contains(&c.kind) && domain.is_none_or(|d| c.domain.id == d))
            .collect();
        match found.len() {
            0 => Err(Error::NotFound("chain")),
            1 => Ok(found.remove(0)),
            _ => Err(Error::unprocessable(
                names::AMBIGUOUS_CODE,
                format!("you have {code:?} on several domains; name the domain"),
            )),
        }
    }

    /// Applies a validated patch to one of the caller's live chains and tells every instance.
    /// `new_template` is the template the patch gives the chain when it changes to one other
    /// than the generic one: the user's template limit is checked in the same transaction.
    pub(crate) async fn patch_chain(
        &self,
        who: &Principal,
        id: ChainId,
        patch: ChainPatch,
        new_template: Option<crate::model::TemplateId>,
    ) -> Result<ChainView> {
        let (user, now) = (who.user_id, self.now());
        let template_limit = self.config().template_limit;
        let mut views = self.views_for_events(user, &[id]).await?;
        let views = views.remove(&id).unwrap_or_default();
        let chain = self
            .transact_checked(move |tx| {
                let patch = patch.clone();
                Box::pin(async move {
                    if let Some(template) = new_template {
                        check_template_limit(tx, user, template, template_limit).await?;
                    }
                    let chain = tx.update_chain(user, id, &patch, now).await?;
                    if let Some(chain) = &chain {
                        tx.publish(Invalidation::Link {
                            domain: chain.domain.id,
                            code: chain.code.clone(),
                        })
                        .await?;
                        let view = ChainView {
                            status: chain.status_at(now),
                            chain: chain.clone(),
                            views,
                        };
                        let data = EventData::Chain(&view);
                        webhooks::emit(tx, user, EventType::ChainUpdated, now, data).await?;
                    }
                    Ok(chain)
                })
            })
            .await
            .map_err(|e| match e {
                BodyError::Rule(e) => e,
                BodyError::Store(e) => e.into(),
            })?
            .ok_or(Error::NotFound("chain"))?;
        self.events_committed(user);
        self.view_one(chain).await
    }

    /// Deletes the caller's live chains among `ids` in one transaction; returns how many.
    pub(crate) async fn delete_chains(&self, who: &Principal, ids: &[ChainId]) -> Result<usize> {
        let (user, at, ids) = (who.user_id, self.now(), ids.to_vec());
        let views = self.views_for_events(user, &ids).await?;
        let deleted = self
            .transact(move |tx| {
                let ids = ids.clone();
                let views = views.clone();
                Box::pin(async move {
                    let mut deleted = Vec::new();
                    for id in ids {
                        if let Some(chain) = tx.delete_chain(user, id, at).await? {
                            tx.publish(Invalidation::Link {
                                domain: chain.domain.id,
                                code: chain.code.clone(),
                            })
                            .await?;
                            deleted.push(ChainView {
                                status: chain.status_at(at),
                                views: views.get(&chain.id).copied().unwrap_or_default(),
                                chain,
                            });
                        }
                    }
                    let data: Vec<EventData<'_>> = deleted.iter().map(EventData::Chain).collect();
                    webhooks::emit_each(tx, user, EventType::ChainDeleted, at, data).await?;
                    Ok(deleted.len())
                })
            })
            .await?;
        self.events_committed(user);
        Ok(deleted)
    }

    /// The page views of `ids` for the events their change reports, read only when the
    /// user has an endpoint (empty otherwise: nothing will carry them).
    pub(crate) async fn views_for_events(
        &self,
        user: UserId,
        ids: &[ChainId],
    ) -> Result<HashMap<ChainId, PageViews>> {
        if !self.emits_webhooks(user) {
            return Ok(HashMap::new());
        }
        let today = self.config().calendar.day_start(self.now());
        Ok(self.store().page_views(ids, today).await?)
    }
}
