//! Short chains: creation with generated or custom codes, reading, editing and deleting, by
//! id and by code. What every kind of chain shares in writing is `chain_writes`'.

use super::chain_checks::{CreatedChain, check_target, check_title, check_valid_time};
use super::engine::idempotency::Receipt;
use super::link_options::OptionsInput;
use super::rules::{RuleInput, check_rules};
use super::{App, Principal};
use crate::codes::validate_code;
use crate::error::{Error, Result, names};
use crate::model::{Chain, ChainId, ChainKind, ChainView, DomainId, GroupId, Timestamp};
use crate::store::{ChainPatch, NewChain};

/// What a caller asks for when creating a short chain.
#[derive(Debug, Clone, Default)]
pub struct NewShortChain {
    /// Destination.
    pub target_url: String,
    /// Domain; the default domain when `None`.
    pub domain_id: Option<DomainId>,
    /// Label.
    pub title: Option<String>,
    /// Custom code; generated when `None`.
    pub code: Option<String>,
    /// Expiry, 0 permanent.
    pub valid_time: Timestamp,
    /// Group.
    pub group_id: Option<GroupId>,
    /// Redirect rules, in order.
    pub rules: Vec<RuleInput>,
    /// Redirect status, start and visit limit.
    pub options: OptionsInput,
}

/// Changes to a short chain.
#[derive(Debug, Clone, Default)]
pub struct ShortChainPatch {
    /// New label.
    pub title: Option<String>,
    /// New destination.
    pub target_url: Option<String>,
    /// New expiry.
    pub valid_time: Option<Timestamp>,
    /// New redirect rules, replacing the old ones (empty: none).
    pub rules: Option<Vec<RuleInput>>,
    /// Options to change, the others kept.
    pub options: OptionsInput,
}

impl App {
    /// Creates a short chain for the caller.
    ///
    /// # Errors
    /// 400 for an invalid target, code or title; 422 for an expiry in the past or a domain or
    /// group that is not the caller's; 409 when a custom code
    /// is taken on the domain; 429 when the daily quota is reached.
    pub async fn create_short_chain(
        &self,
        who: &Principal,
        input: NewShortChain,
        receipt: Option<&Receipt<CreatedChain>>,
    ) -> Result<CreatedChain> {
        let now = self.now();
        let group = input.group_id;
        let (mut new, code) = self.short_chain_record(who, input, now)?;
        if let Some(group) = group {
            new.group_ids = vec![self.group_for_chain(who, group, ChainKind::Short).await?];
        }
        self.insert_new_chain(new, code, receipt).await
    }

    /// A short chain as it will be stored, every field checked but its group (which needs the
    /// store: the caller checks it and sets `group_ids`); and its custom code, if any.
    pub(crate) fn short_chain_record(
        &self,
        who: &Principal,
        input: NewShortChain,
        now: Timestamp,
    ) -> Result<(NewChain, Option<String>)> {
        let target_url = check_target(&input.target_url)?;
        let title = check_title(input.title)?.unwrap_or_default();
        let rules = check_rules(input.rules)?;
        check_valid_time(input.valid_time, now)?;
        let options = input
            .options
            .apply(&crate::model::LinkOptions::default(), input.valid_time)?;
        if let Some(code) = &input.code {
            validate_code(code)
                .map_err(|e| Error::bad_request(names::INVALID_CODE, e.to_string()))?;
        }
        let domain_id = self.domain_for_create(who, input.domain_id)?;
        let new = NewChain {
            user_id: who.user_id,
            kind: ChainKind::Short,
            sub_type: None,
            domain_id,
            code: String::new(),
            title,
            target_url,
            group_ids: Vec::new(),
            valid_time: input.valid_time,
            created_at: now,
            jump: None,
            channels: Vec::new(),
            rules,
            status: crate::model::ChainStatus::Normal,
            archived_at: None,
            imported_visits: 0,
            visits_taken: 0,
            options,
        };
        Ok((new, input.code))
    }

    /// One of the caller's short chains by id.
    ///
    /// # Errors
    /// 404 when the caller has no live short chain with that id.
    pub async fn short_chain(&self, who: &Principal, id: ChainId) -> Result<ChainView> {
        let chain = self.own_short_chain(who, id).await?;
        self.view_one(chain).await
    }

    async fn own_short_chain(&self, who: &Principal, id: ChainId) -> Result<Chain> {
        self.own_chain(who, id, &[ChainKind::Short]).await
    }

    /// One of the caller's short chains by code; `domain` picks among equal codes on several
    /// domains.
    ///
    /// # Errors
    /// 404 when there is none; 422 when the code is on several of the caller's domains and no
    /// domain was given.
    pub async fn short_chain_by_code(
        &self,
        who: &Principal,
        code: &str,
        domain: Option<DomainId>,
    ) -> Result<ChainView> {
        let chain = self.find_by_code(who, code, domain).await?;
        self.view_one(chain).await
    }

    async fn find_by_code(
        &self,
        who: &Principal,
        code: &str,
        domain: Option<DomainId>,
    ) -> Result<Chain> {
        self.find_by_code_of(who, code, domain, &[ChainKind::Short])
            .await
    }

    /// Edits one of the caller's short chains.
    ///
    /// # Errors
    /// 404 when the caller has no such chain; 400 for an empty patch or invalid fields.
    pub async fn update_short_chain(
        &self,
        who: &Principal,
        id: ChainId,
        patch: ShortChainPatch,
    ) -> Result<ChainView> {
        let now = self.now();
        let options = patch.options;
        let mut patch = ChainPatch {
            title: check_title(patch.title)?,
            target_url: patch.target_url.as_deref().map(check_target).transpose()?,
            valid_time: match patch.valid_time {
                Some(t) => {
                    check_valid_time(t, now)?;
                    Some(t)
                }
                None => None,
            },
            rules: patch.rules.map(check_rules).transpose()?,
            ..ChainPatch::default()
        };
        if patch.is_empty() && options.is_empty() {
            return Err(Error::bad_request(
                names::EMPTY_UPDATE,
                "give at least one of chain_title, target_url, valid_time, rules, \
                 redirect_status, valid_since, max_visits, preview_title, preview_description, \
                 preview_image",
            ));
        }
        let chain = self.own_short_chain(who, id).await?;
        // Checked against the expiry the chain will have, so an expiry moved before the chain's
        // start is refused as that start would be; merged over its options as read (a
        // concurrent edit of other options of the same chain is replaced, as page settings are).
        let valid_time = patch.valid_time.unwrap_or(chain.valid_time);
        let changes_options = !options.is_empty();
        let merged = options.apply(&chain.options, valid_time)?;
        if changes_options {
            patch.options = Some(merged);
        }
        self.patch_chain(who, id, patch, None).await
    }

    /// Edits one of the caller's short chains named by code.
    ///
    /// # Errors
    /// As [`App::short_chain_by_code`] and [`App::update_short_chain`].
    pub async fn update_short_chain_by_code(
        &self,
        who: &Principal,
        code: &str,
        domain: Option<DomainId>,
        patch: ShortChainPatch,
    ) -> Result<ChainView> {
        let chain = self.find_by_code(who, code, domain).await?;
        self.update_short_chain(who, chain.id, patch).await
    }

    /// Archives one of the caller's short chains (`archived`), or brings it back: an archived
    /// chain is left out of `GET /chains` unless asked for and still redirects. Archiving an
    /// archived chain keeps the time it was first archived.
    ///
    /// # Errors
    /// 404 when the caller has no such chain.
    pub async fn archive_short_chain(
        &self,
        who: &Principal,
        id: ChainId,
        archived: bool,
    ) -> Result<ChainView> {
        self.own_short_chain(who, id).await?;
        let patch = ChainPatch {
            archived: Some(archived),
            ..ChainPatch::default()
        };
        self.patch_chain(who, id, patch, None).await
    }

    /// Deletes one of the caller's short chains. Its code is never reused.
    ///
    /// # Errors
    /// 404 when the caller has no such chain.
    pub async fn delete_short_chain(&self, who: &Principal, id: ChainId) -> Result<()> {
        self.own_short_chain(who, id).await?;
        self.delete_chains(who, &[id]).await?;
        Ok(())
    }

    /// Deletes the caller's short chains named by code, all or none.
    ///
    /// # Errors
    /// 400 for an empty list; 422 naming the first code the caller has no chain for.
    pub async fn delete_short_chains_by_code(
        &self,
        who: &Principal,
        codes: &[String],
        domain: Option<DomainId>,
    ) -> Result<usize> {
        if codes.is_empty() {
            return Err(Error::bad_request(names::EMPTY_DELETE, "chains is empty"));
        }
        let mut ids = Vec::with_capacity(codes.len());
        for code in codes {
            let chain = self
                .find_by_code(who, code, domain)
                .await
                .map_err(|e| match e {
                    Error::NotFound(_) => {
                        Error::unprocessable(names::UNKNOWN_CHAIN, format!("no chain {code:?}"))
                    }
                    other => other,
                })?;
            ids.push(chain.id);
        }
        ids.dedup();
        self.delete_chains(who, &ids).await
    }
}
