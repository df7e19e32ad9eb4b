//! Creating page chains.

use super::fields::{
    DESTINATION_TEXTS, bad, channel_edits, check_destination, code_of, fixed_destination,
    merge_settings, unprocessable,
};
use super::{PageChainInput, PageChainView, check_chain_type};

use crate::codes::{validate_code, validate_target_url};
use crate::error::{Result, names};
use crate::model::ChainView;
use crate::model::{Chain, ChainKind, GroupId, JumpSettings, SubType, TemplateId, WorkchatKind};
use crate::service::chain_checks::CreatedChain;
use crate::service::chain_checks::{check_title, check_valid_time};
use crate::service::engine::idempotency::Receipt;
use crate::service::{App, Principal};
use crate::store::{ChannelEdit, ChannelInput, NewChain};

impl App {
    /// Creates a messaging-app external chain (`kind` External) or a card chain (Card).
    ///
    /// # Errors
    /// 400 for invalid fields or any template on a card chain; 422 for fields that break the
    /// destination rule or a template the caller may not use; 409 for a taken code; 429 at the
    /// daily quota.
    pub async fn create_messaging_chain(
        &self,
        who: &Principal,
        kind: ChainKind,
        input: PageChainInput,
        receipt: Option<&Receipt<ChainView>>,
    ) -> Result<PageChainView> {
        check_chain_type(input.chain_type, kind)?;
        let sub_type = code_of(
            "sub_type",
            input.sub_type.unwrap_or(1),
            SubType::from_code,
            SubType::codes(),
        )?;
        if input.target_url.as_deref().is_some_and(|t| !t.is_empty())
            || input.wxwork_type.is_some()
            || input.customer_id.is_some_and(|c| c != 0)
        {
            return Err(unprocessable(
                names::FIELD_NOT_ALLOWED,
                "target_url, wxwork_type and customer_id belong to work-chat chains",
            ));
        }
        let mut jump = JumpSettings::default();
        merge_settings(&mut jump, &input)?;
        let (edits, live) = channel_edits(&input.channels, &[])?;
        check_destination(sub_type, &mut jump, live)?;
        self.check_template(who, kind, jump.template_id, None)
            .await?;
        let target_url = fixed_destination(kind, Some(sub_type.code()), &jump);
        self.insert_page_chain(
            who,
            kind,
            Some(sub_type.code()),
            input,
            jump,
            target_url,
            edits,
            receipt,
        )
        .await
    }

    /// Creates a work-chat chain.
    ///
    /// # Errors
    /// 400 for an invalid destination; 422 for a missing one, an unknown assembly entry or a
    /// template the caller may not use; 409 and 429 as for other chains.
    pub async fn create_workchat_chain(
        &self,
        who: &Principal,
        input: PageChainInput,
        receipt: Option<&Receipt<ChainView>>,
    ) -> Result<PageChainView> {
        check_chain_type(input.chain_type, ChainKind::WorkChat)?;
        let mut jump = JumpSettings::default();
        merge_settings(&mut jump, &input)?;
        let url = self
            .workchat_destination(who, &input, &mut jump, None)
            .await?;
        self.check_template(who, ChainKind::WorkChat, jump.template_id, None)
            .await?;
        let channel = ChannelInput {
            sort: 0,
            name: String::new(),
            url: url.clone(),
            url2: String::new(),
            expires_at: 0,
            ratio: 1,
            visit_limit: 0,
            enabled: true,
        };
        self.insert_page_chain(
            who,
            ChainKind::WorkChat,
            None,
            input,
            jump,
            url,
            vec![ChannelEdit::Add(channel)],
            receipt,
        )
        .await
    }

    /// Decides a work-chat chain's destination URL from `wxwork_type` and `customer_id` or
    /// `target_url`, as they stand after `input` is applied to `old`.
    pub(super) async fn workchat_destination(
        &self,
        who: &Principal,
        input: &PageChainInput,
        jump: &mut JumpSettings,
        old: Option<&Chain>,
    ) -> Result<String> {
        let has_external = input.sub_type.is_some_and(|s| s != 0)
            || DESTINATION_TEXTS
                .iter()
                .any(|(name, _)| input.texts.get(name).is_some_and(|v| !v.is_empty()))
            || !input.channels.is_empty();
        if has_external {
            return Err(unprocessable(
                names::FIELD_NOT_ALLOWED,
                "work-chat chains take wxwork_type with customer_id or target_url; sub_type, \
                 messaging-app destinations and channel_list belong to external chains",
            ));
        }
        let kind = match input.wxwork_type {
            Some(v) => Some(code_of(
                "wxwork_type",
                v,
                WorkchatKind::from_code,
                WorkchatKind::codes(),
            )?),
            None => jump.workchat_kind,
        }
        .ok_or_else(|| {
            unprocessable(
                names::MISSING_DESTINATION,
                "wxwork_type is required (1 or 2)",
            )
        })?;
        jump.workchat_kind = Some(kind);
        let customer_id = input
            .customer_id
            .filter(|c| *c != 0)
            .or(jump.customer_id.filter(|_| input.wxwork_type.is_none()));
        let target_url = input
            .target_url
            .clone()
            .filter(|t| !t.is_empty())
            .or_else(|| {
                old.filter(|_| input.wxwork_type.is_none() && input.customer_id.is_none())
                    .map(|c| c.target_url.clone())
            });
        match kind {
            WorkchatKind::Acquisition => {
                if input.target_url.as_deref().is_some_and(|t| !t.is_empty()) {
                    return Err(unprocessable(
                        names::FIELD_NOT_ALLOWED,
                        "target_url belongs to wxwork_type 2; wxwork_type 1 takes customer_id",
                    ));
                }
                let id = customer_id.ok_or_else(|| {
                    unprocessable(
                        names::MISSING_DESTINATION,
                        "wxwork_type 1 needs customer_id, an entry of your assembly list",
                    )
                })?;
                let assembly = self.assembly(who, id).await?.ok_or_else(|| {
                    unprocessable(
                        names::UNKNOWN_CUSTOMER,
                        format!("your assembly list has no entry {id}"),
                    )
                })?;
                jump.customer_id = Some(id);
                Ok(assembly.url)
            }
            WorkchatKind::CustomUrl => {
                if input.customer_id.is_some_and(|c| c != 0) {
                    return Err(unprocessable(
                        names::FIELD_NOT_ALLOWED,
                        "customer_id belongs to wxwork_type 1; wxwork_type 2 takes target_url",
                    ));
                }
                // Empty (or only spaces) is none, as in every URL field.
                let url = target_url
                    .filter(|url| !url.trim_matches(' ').is_empty())
                    .ok_or_else(|| {
                        unprocessable(names::MISSING_DESTINATION, "wxwork_type 2 needs target_url")
                    })?;
                jump.customer_id = None;
                validate_target_url(&url)
                    .map_err(|e| bad(names::INVALID_TARGET_URL, format!("target_url: {e}")))
            }
        }
    }

    /// Refuses a template the caller may not choose: any but the generic one on a card chain;
    /// one not offered to the caller (unless the chain already uses it). The template limit is
    /// checked where the chain is written (`templates::check_template_limit`), so it is exact.
    pub(super) async fn check_template(
        &self,
        who: &Principal,
        kind: ChainKind,
        id: TemplateId,
        current: Option<TemplateId>,
    ) -> Result<()> {
        if id.0 == 0 || current == Some(id) {
            return Ok(());
        }
        if kind == ChainKind::Card {
            return Err(bad(
                names::TEMPLATE_NOT_ALLOWED,
                "card chains have no jump template: jump_template_id must be 0",
            ));
        }
        let offered =
            self.store().template(id).await?.is_some_and(|t| {
                t.retired_at.is_none() && t.user_id.is_none_or(|u| u == who.user_id)
            });
        if !offered {
            return Err(unprocessable(
                names::INVALID_TEMPLATE,
                format!("no template {id} for you (see GET /templates)"),
            ));
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    async fn insert_page_chain(
        &self,
        who: &Principal,
        kind: ChainKind,
        sub_type: Option<i64>,
        input: PageChainInput,
        jump: JumpSettings,
        target_url: String,
        edits: Vec<ChannelEdit>,
        receipt: Option<&Receipt<ChainView>>,
    ) -> Result<PageChainView> {
        let now = self.now();
        let title = check_title(input.title)?.unwrap_or_default();
        let valid_time = input.valid_time.unwrap_or(0);
        check_valid_time(valid_time, now)?;
        let code = input.code.filter(|c| !c.is_empty());
        if let Some(code) = &code {
            validate_code(code).map_err(|e| bad(names::INVALID_CODE, e.to_string()))?;
        }
        let domain_id = self.domain_for_create(who, input.domain_id)?;
        let group_ids = self
            .groups_for_chain(who, input.group_ids.unwrap_or_default(), kind)
            .await?;
        let channels = edits
            .into_iter()
            .filter_map(|e| match e {
                ChannelEdit::Add(c) => Some(c),
                _ => None,
            })
            .collect();
        let new = NewChain {
            user_id: who.user_id,
            kind,
            sub_type,
            domain_id,
            code: String::new(),
            title,
            target_url,
            group_ids,
            valid_time,
            created_at: now,
            jump: Some(jump),
            channels,
            rules: Vec::new(),
            status: crate::model::ChainStatus::Normal,
            archived_at: None,
            imported_visits: 0,
            visits_taken: 0,
            options: crate::model::LinkOptions::default(),
        };
        let receipt = receipt.map(|r| r.of_part(|created: &CreatedChain| &created.view));
        let created = self.insert_new_chain(new, code, receipt.as_ref()).await?;
        let channels = self.store().channels(created.view.chain.id).await?;
        Ok(PageChainView {
            view: created.view,
            channels,
        })
    }

    /// Checks every group (0 meaning none is dropped), keeping the order given.
    pub(super) async fn groups_for_chain(
        &self,
        who: &Principal,
        ids: Vec<GroupId>,
        kind: ChainKind,
    ) -> Result<Vec<GroupId>> {
        let mut groups = Vec::with_capacity(ids.len());
        for id in ids.into_iter().filter(|g| g.0 != 0) {
            if !groups.contains(&id) {
                groups.push(self.group_for_chain(who, id, kind).await?);
            }
        }
        Ok(groups)
    }
}
