//! Chains with a jump page: messaging-app external chains (type 2), card chains (type 4) and
//! work-chat chains (type 3). Creating, editing, reading, listing and deleting them, and the
//! rules their fields follow.
//!
//! The destination rule (contract section 4): `sub_type` names the destination and the fields
//! it needs are required; a destination field that belongs to another `sub_type` is refused
//! with 400 when it is set (empty strings count as not set), never silently dropped. Channels
//! belong to scan-QR chains (sub_type 1) and work-chat chains. The same rule holds on edit,
//! where the result of the edit is checked as a whole; changing `sub_type` clears the old
//! destination's fields the edit does not set.
//!
//! # Layout
//! - this file: what callers give and get (`PageChainInput`, `ChannelSpec`, `PageChainView`)
//!   and which chains an operation addresses (`PageChains`);
//! - `fields`: the checks of each field, where a chain leads, channel lists;
//! - `create`: creating messaging-app, card and work-chat chains;
//! - `manage`: reading, listing, editing and deleting them.

mod create;
mod fields;
mod manage;

pub use fields::{app_link, fixed_destination};

use crate::error::{Error, Result, names};
use crate::model::ChainView;
use crate::model::{
    ChainKind, Channel, ChannelId, DomainId, GroupId, JumpSettings, PageTextEdits, Timestamp,
};

/// A messaging-app, card or work-chat chain as a caller describes it. On create, absent
/// fields take their defaults; on edit, absent fields keep their values.
#[derive(Debug, Clone, Default)]
pub struct PageChainInput {
    /// The kind the caller says it means (`chain_type`); absent or 0 says nothing, anything
    /// else must be the kind the operation makes or edits.
    pub chain_type: Option<i64>,
    /// Domain (create only).
    pub domain_id: Option<DomainId>,
    /// Label.
    pub title: Option<String>,
    /// Custom code (create only).
    pub code: Option<String>,
    /// Expiry, 0 permanent.
    pub valid_time: Option<Timestamp>,
    /// Groups, replacing the old ones on edit.
    pub group_ids: Option<Vec<GroupId>>,
    /// Destination kind of external and card chains; 1 when absent on create.
    pub sub_type: Option<i64>,
    /// The page's texts and destination identifiers.
    pub texts: PageTextEdits,
    /// 0 page, 1 direct jump.
    pub is_direct_jump: Option<i64>,
    /// 1 small image, 2 long image.
    pub show_type: Option<i64>,
    /// Template; 0 the generic one.
    pub jump_template_id: Option<i64>,
    /// 0 or 1.
    pub scan_tips: Option<i64>,
    /// 1 total, 2 daily channel caps.
    pub qrcode_vc_type: Option<i64>,
    /// Channel rotation.
    pub visit_type: Option<i64>,
    /// Work-chat destination kind.
    pub wxwork_type: Option<i64>,
    /// Work-chat assembly entry (wxwork_type 1).
    pub customer_id: Option<i64>,
    /// Work-chat URL (wxwork_type 2).
    pub target_url: Option<String>,
    /// Channels to add, change or remove.
    pub channels: Vec<ChannelSpec>,
    /// The work-chat channel an edit changes (work-chat edit only).
    pub channel_id: Option<ChannelId>,
}

/// One entry of a channel list as sent: without `id` a new channel, with `id` a change to
/// (or, with `delete`, the removal of) one of the chain's channels.
#[derive(Debug, Clone, Default)]
pub struct ChannelSpec {
    /// The channel to change or remove.
    pub id: Option<ChannelId>,
    /// Remove it (`is_delete: 1`).
    pub delete: bool,
    /// Position in sort order.
    pub sort: Option<i64>,
    /// Label (`qrcode_name`).
    pub name: Option<String>,
    /// QR image or destination URL.
    pub url: Option<String>,
    /// Where the QR code leads.
    pub url2: Option<String>,
    /// Expiry (`qrcode_time`), Unix seconds, 0 never.
    pub qrcode_time: Option<i64>,
    /// Weight.
    pub ratio: Option<i64>,
    /// Cap, 0 unlimited.
    pub visit_limit: Option<i64>,
    /// 1 enabled, 0 disabled.
    pub status: Option<i64>,
}

/// Which chains with a page an operation addresses. A chain outside its set answers as
/// missing, and a `chain_type` outside it is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageChains {
    /// `/wx-chains/{id}`: every kind with a page (messaging-app, card and work-chat).
    All,
    /// The compatibility surface's `wxchain` actions: messaging-app and card chains.
    Messaging,
    /// The compatibility surface's `workchat` actions: work-chat chains.
    WorkChat,
}

impl PageChains {
    fn kinds(self) -> &'static [ChainKind] {
        match self {
            PageChains::All => &[ChainKind::Messaging, ChainKind::Card, ChainKind::WorkChat],
            PageChains::Messaging => &[ChainKind::Messaging, ChainKind::Card],
            PageChains::WorkChat => &[ChainKind::WorkChat],
        }
    }
}

/// Most chains the card list holds (spec 8.1).
const CARD_LIST_LIMIT: i64 = 100;

/// Refuses a `chain_type` that names another kind than `kind`, the one the operation makes
/// or edits.
fn check_chain_type(chain_type: Option<i64>, kind: ChainKind) -> Result<()> {
    match chain_type {
        None | Some(0) => Ok(()),
        Some(t) if t == kind.code() => Ok(()),
        Some(t) => Err(Error::unprocessable(
            names::INVALID_CHAIN_TYPE_RULE,
            format!(
                "chain_type {t} cannot be used here; this operation makes chains of type {}",
                kind.code()
            ),
        )),
    }
}

/// A chain's domain and code are what its link is: an edit cannot change them.
fn immutable(message: &'static str) -> Error {
    Error::unprocessable(names::IMMUTABLE_FIELD, message)
}

/// A page chain as read: the chain, its status and page views, and its live channels.
#[derive(Debug, Clone)]
pub struct PageChainView {
    /// The chain, status and views.
    pub view: ChainView,
    /// Live channels in sort order, with their visit counts.
    pub channels: Vec<Channel>,
}

impl PageChainView {
    /// The jump-page settings (every page chain has them).
    pub fn settings(&self) -> &JumpSettings {
        static NONE: std::sync::LazyLock<JumpSettings> =
            std::sync::LazyLock::new(JumpSettings::default);
        self.view.chain.jump.as_deref().unwrap_or(&NONE)
    }
}
