//! Reading, listing, editing and deleting page chains.

use super::fields::{
    bad, channel_edits, check_destination, clear_other_destinations, code_of, fixed_destination,
    input_is_empty, merge_settings, settle_channel, unprocessable,
};
use super::{
    CARD_LIST_LIMIT, ChannelSpec, PageChainInput, PageChainView, PageChains, check_chain_type,
    immutable,
};

use crate::error::{Error, Result, names};
use crate::model::ChainView;
use crate::model::{Chain, ChainId, ChainKind, DomainId, SubType};
use crate::service::chain_checks::{check_title, check_valid_time};
use crate::service::{App, ChainListing, Principal};
use crate::store::{ChainPatch, ChannelEdit, Page};

impl App {
    /// One of the caller's chains of `set` by id, with its channels.
    ///
    /// # Errors
    /// 404 when the caller has no such live chain.
    pub async fn page_chain(
        &self,
        who: &Principal,
        id: ChainId,
        set: PageChains,
    ) -> Result<PageChainView> {
        let chain = self.own_chain(who, id, set.kinds()).await?;
        self.page_chain_view(chain).await
    }

    /// One of the caller's chains of `set` by code.
    ///
    /// # Errors
    /// 404 when there is none; 422 when the code is on several of the caller's domains.
    pub async fn page_chain_by_code(
        &self,
        who: &Principal,
        code: &str,
        domain: Option<DomainId>,
        set: PageChains,
    ) -> Result<PageChainView> {
        let chain = self.find_by_code_of(who, code, domain, set.kinds()).await?;
        self.page_chain_view(chain).await
    }

    async fn page_chain_view(&self, chain: Chain) -> Result<PageChainView> {
        let channels = self.store().channels(chain.id).await?;
        Ok(PageChainView {
            view: self.view_one(chain).await?,
            channels,
        })
    }

    /// A page of the caller's chains of the kind `chain_type` names (2 messaging-app, the
    /// default; 3 work-chat; 4 card), newest first.
    ///
    /// # Errors
    /// 400 for another `chain_type` or a bad page.
    pub async fn list_page_chains(
        &self,
        who: &Principal,
        chain_type: Option<i64>,
        listing: ChainListing,
    ) -> Result<(Page<ChainView>, i64, i64)> {
        let kind = match chain_type.unwrap_or(2) {
            2 => ChainKind::Messaging,
            3 => ChainKind::WorkChat,
            4 => ChainKind::Card,
            _ => {
                return Err(bad(
                    names::INVALID_CHAIN_TYPE,
                    "chain_type is 2 (external), 3 (work-chat) or 4 (card)",
                ));
            }
        };
        self.list_chains_of_kind(who, kind, listing).await
    }

    /// The caller's card chains, newest first, at most `CARD_LIST_LIMIT` (100).
    ///
    /// # Errors
    /// The store's.
    pub async fn list_cards(&self, who: &Principal) -> Result<Page<ChainView>> {
        let (found, _, _) = self
            .list_chains_of_kind(
                who,
                ChainKind::Card,
                ChainListing {
                    page_size: Some(CARD_LIST_LIMIT),
                    ..ChainListing::default()
                },
            )
            .await?;
        Ok(found)
    }

    /// Edits one of the caller's chains of `set` by id. Its domain and code cannot change.
    ///
    /// # Errors
    /// 404 when the caller has no such chain; 400 for invalid fields; 422 for an edit that
    /// changes nothing or breaks the destination rule, `immutable_field` for a domain or code.
    pub async fn edit_page_chain(
        &self,
        who: &Principal,
        id: ChainId,
        set: PageChains,
        input: PageChainInput,
    ) -> Result<PageChainView> {
        if input.domain_id.is_some() || input.code.is_some() {
            return Err(immutable(
                "domain_id and code cannot change; create a new chain instead",
            ));
        }
        let chain = self.own_chain(who, id, set.kinds()).await?;
        self.edit_chain_page(who, chain, input).await
    }

    /// Edits one of the caller's chains of `set` by code (on `domain` when given). Its code
    /// cannot change (naming the same code again is no change), and a `chain_type` must be
    /// its kind.
    ///
    /// # Errors
    /// 404 when the caller has no such chain; 400 for invalid fields; 422 for an edit that
    /// changes nothing or breaks the destination rule, `immutable_field` for another code,
    /// `invalid_chain_type` for another kind, `ambiguous_code` for a code on several domains.
    pub async fn edit_page_chain_by_code(
        &self,
        who: &Principal,
        code: &str,
        domain: Option<DomainId>,
        set: PageChains,
        mut input: PageChainInput,
    ) -> Result<PageChainView> {
        if input
            .code
            .take()
            .is_some_and(|c| !c.is_empty() && c != code)
        {
            return Err(immutable("code cannot change; create a new chain instead"));
        }
        if let [kind] = set.kinds() {
            check_chain_type(input.chain_type, *kind)?;
        }
        let chain = self.find_by_code_of(who, code, domain, set.kinds()).await?;
        check_chain_type(input.chain_type, chain.kind)?;
        self.edit_chain_page(who, chain, input).await
    }

    /// Applies an edit to one of the caller's chains with a page. The result is checked as a
    /// whole, as on create.
    ///
    /// # Errors
    /// 400 for invalid fields; 422 for an edit that changes nothing or breaks the destination
    /// rule.
    async fn edit_chain_page(
        &self,
        who: &Principal,
        chain: Chain,
        input: PageChainInput,
    ) -> Result<PageChainView> {
        let id = chain.id;
        let existing = self.store().channels(chain.id).await?;
        let now = self.now();
        let old_jump = chain.jump.as_deref().cloned().unwrap_or_default();
        let mut jump = old_jump.clone();
        merge_settings(&mut jump, &input)?;
        let mut patch = ChainPatch {
            title: check_title(input.title.clone())?,
            valid_time: match input.valid_time {
                Some(t) => {
                    check_valid_time(t, now)?;
                    Some(t)
                }
                None => None,
            },
            group_ids: match input.group_ids.clone() {
                Some(ids) => Some(self.groups_for_chain(who, ids, chain.kind).await?),
                None => None,
            },
            ..ChainPatch::default()
        };
        if chain.kind == ChainKind::WorkChat {
            let url = self
                .workchat_destination(who, &input, &mut jump, Some(&chain))
                .await?;
            let channel = match input.channel_id.filter(|c| c.0 != 0) {
                Some(id) => existing.iter().find(|c| c.id == id).ok_or_else(|| {
                    unprocessable(
                        names::UNKNOWN_CHANNEL,
                        format!("this chain has no channel {id}"),
                    )
                })?,
                None => existing
                    .first()
                    .ok_or_else(|| Error::Internal("a work-chat chain has no channel".into()))?,
            };
            if url != channel.url {
                let mut changed = settle_channel(&ChannelSpec::default(), Some(channel))?;
                changed.url = url.clone();
                patch
                    .channels
                    .push(ChannelEdit::Change(channel.id, changed));
            }
            if url != chain.target_url {
                patch.target_url = Some(url);
            }
        } else {
            if input.wxwork_type.is_some()
                || input.customer_id.is_some_and(|c| c != 0)
                || input.target_url.as_deref().is_some_and(|t| !t.is_empty())
            {
                return Err(unprocessable(
                    names::FIELD_NOT_ALLOWED,
                    "target_url, wxwork_type and customer_id belong to work-chat chains",
                ));
            }
            let sub_type = code_of(
                "sub_type",
                input.sub_type.or(chain.sub_type).unwrap_or(1),
                SubType::from_code,
                SubType::codes(),
            )?;
            if Some(sub_type.code()) != chain.sub_type {
                clear_other_destinations(&mut jump, sub_type, &input);
                patch.sub_type = Some(sub_type.code());
            }
            let (edits, live) = channel_edits(&input.channels, &existing)?;
            check_destination(sub_type, &mut jump, live)?;
            patch.channels = edits;
            let target_url = fixed_destination(chain.kind, Some(sub_type.code()), &jump);
            if target_url != chain.target_url {
                patch.target_url = Some(target_url);
            }
        }
        self.check_template(
            who,
            chain.kind,
            jump.template_id,
            Some(old_jump.template_id),
        )
        .await?;
        let new_template =
            Some(jump.template_id).filter(|t| *t != old_jump.template_id && t.0 != 0);
        if jump != old_jump {
            patch.jump = Some(jump);
        }
        if patch.is_empty() {
            if input_is_empty(&input) {
                return Err(unprocessable(
                    names::EMPTY_UPDATE_RULE,
                    "the edit changes nothing: give a field",
                ));
            }
            // Every field given already had that value.
            return self.page_chain_view(chain).await;
        }
        let view = self.patch_chain(who, id, patch, new_template).await?;
        let channels = self.store().channels(id).await?;
        Ok(PageChainView { view, channels })
    }

    /// Deletes one of the caller's chains of `set`.
    ///
    /// # Errors
    /// 404 when the caller has no such chain.
    pub async fn delete_page_chain(
        &self,
        who: &Principal,
        id: ChainId,
        set: PageChains,
    ) -> Result<()> {
        self.own_chain(who, id, set.kinds()).await?;
        self.delete_chains(who, &[id]).await?;
        Ok(())
    }
}
