//! What a visitor of a messaging-app, card or work-chat chain gets: the channel its rotation
//! picks, then the jump page built from it (or, with `is_direct_jump`, a 302).
//!
//! Rotation (`visit_type`) orders the usable channels (enabled, `qrcode_time` not passed):
//! 1 in `sort` order, 3 weighted random by `ratio` (sampling without replacement, so an
//! exhausted channel hands its share to the others by weight), 4 round robin from a per-chain
//! cursor, 5 uniform random. The visit gets the first channel in that order that still has
//! room. Channels without a `visit_limit` are picked in memory and counted through the visit
//! pipeline: no database on the request path. A channel with a limit is taken by a conditional
//! update in the database ([`crate::store::Tx::take_channel_visit`]), so the database decides
//! and a channel never gets more than its limit, whichever instance serves.
//! A channel found used up is remembered per instance (until its limit changes, or the next
//! day for daily caps), so later visits skip it without asking the database.
//!
//! Bots (crawlers, link previews, `HEAD`) see the page but never take a limited visit and
//! are not counted on channels.
//!
//! When no channel is usable, a scan-QR chain falls back to its own `scan_qr_url`; without
//! one the visitor gets 410 and a page saying the codes are used up.

use super::App;
use super::page_chains::fixed_destination;
use super::webhooks;
use crate::error::{Error, Result};
use crate::model::{
    ChainId, ChainKind, Channel, EventType, ShowType, SubType, Template, TemplateId, TemplateKind,
    Timestamp,
};
use crate::model::{ChannelExhaustion, EventData};
use crate::pages::{JumpPage, safe_url};
use crate::service::engine::visitors::VisitRequest;
use crate::store::PageTarget;

/// What a visit of a page chain answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PageAnswer {
    /// 302 to the destination.
    Redirect(String),
    /// 200 with the rendered page.
    Page(String),
    /// 410: no channel is usable and there is no fallback image.
    UsedUp,
}

impl App {
    /// Serves a visit of a page chain: picks the channel, counts the visit, and says what to
    /// answer.
    ///
    /// # Errors
    /// When the store fails while taking a limited channel's visit, or the page does not
    /// render.
    pub(crate) async fn visit_page_chain(
        &self,
        chain_id: ChainId,
        kind: ChainKind,
        page: &PageTarget,
        request: VisitRequest<'_>,
    ) -> Result<PageAnswer> {
        let now = self.now();
        let day = self.config().calendar.day_start(now);
        let bot = self.is_bot_visit(&request);
        let (chosen, counted) = self.pick_channel(chain_id, page, now, day, bot).await?;
        let pipeline_channel = chosen.filter(|c| !counted && !bot && c.visit_limit == 0);
        self.record_channel_visit(chain_id, pipeline_channel.map(|c| c.id), request);
        self.jump_answer(kind, page, chosen).await
    }

    /// The channel a visit gets, and whether taking it already counted it.
    async fn pick_channel<'p>(
        &self,
        chain_id: ChainId,
        page: &'p PageTarget,
        now: Timestamp,
        day: Timestamp,
        bot: bool,
    ) -> Result<(Option<&'p Channel>, bool)> {
        if page.channels.is_empty() {
            return Ok((None, false));
        }
        let cap = page.settings.visit_cap;
        let daily = cap == crate::model::VisitCap::Daily;
        let rotation = self.inner.rotations.of(chain_id);
        let ordered = rotation.order(&page.channels, page.settings.rotation, now, day, daily);
        for channel in ordered {
            if channel.visit_limit == 0 || bot {
                return Ok((Some(channel), false));
            }
            // One transaction per channel tried: each holds one channel's row at a time, so
            // visitors trying channels in different orders never wait for each other in a
            // cycle.
            let (id, limit) = (channel.id, channel.visit_limit);
            // The take that uses the channel up reports it, in its own transaction; the
            // event's data is made only then, not for every visit of a limited channel.
            let (user, url) = (page.user_id, channel.url.clone());
            let taken = self
                .transact(move |tx| {
                    let url = url.clone();
                    Box::pin(async move {
                        let taken = tx.take_channel_visit(id, cap, limit, day).await?;
                        if taken == Some(limit) {
                            let exhausted = ChannelExhaustion {
                                chain_id,
                                channel_id: id,
                                url,
                                visit_limit: limit,
                                day: daily.then_some(day),
                            };
                            let data = EventData::ChannelExhausted(&exhausted);
                            let event = EventType::ChannelExhausted;
                            webhooks::emit(tx, user, event, now, data).await?;
                        }
                        Ok(taken)
                    })
                })
                .await?;
            if taken == Some(limit) {
                self.events_committed(user);
            }
            if taken.is_some() {
                return Ok((Some(channel), true));
            }
            rotation.used_up(id, limit, daily.then_some(day));
        }
        Ok((None, false))
    }

    async fn jump_answer(
        &self,
        kind: ChainKind,
        page: &PageTarget,
        channel: Option<&Channel>,
    ) -> Result<PageAnswer> {
        let settings = &page.settings;
        let sub_type = page.sub_type.and_then(SubType::from_code);
        let scan_qr = kind != ChainKind::WorkChat && sub_type.is_none_or(|s| s == SubType::ScanQr);
        // The image shown and where the QR code (or the chain) leads.
        let (image, destination) = if kind == ChainKind::WorkChat {
            match channel {
                Some(c) => (None, c.url.clone()),
                None => return Ok(PageAnswer::UsedUp),
            }
        } else if scan_qr {
            match channel {
                Some(c) => (Some(c.url.clone()), c.url2.clone()),
                None if !settings.texts.scan_qr_url.is_empty() => {
                    (Some(settings.texts.scan_qr_url.clone()), String::new())
                }
                None => return Ok(PageAnswer::UsedUp),
            }
        } else {
            (None, fixed_destination(kind, page.sub_type, settings))
        };
        if settings.direct_jump {
            // A scan-QR chain whose QR code's link is unknown sends the visitor to the image.
            let location = if destination.is_empty() {
                image.unwrap_or_default()
            } else {
                destination
            };
            return Ok(PageAnswer::Redirect(location));
        }
        let (button_url, button_label) = match (kind, sub_type) {
            (ChainKind::WorkChat, _) => (destination, "Open in work chat"),
            (_, Some(SubType::AccountId)) => ("weixin://".to_owned(), "Open the app"),
            (_, Some(SubType::MiniProgram)) => (destination, "Open the mini-program"),
            (_, Some(SubType::Shop)) => (destination, "Open the shop"),
            (_, Some(SubType::WorkchatUrl)) => (destination, "Add on work chat"),
            _ => (destination, "Open"),
        };
        let jump_page = JumpPage {
            title: page.title.clone(),
            sub_title: if settings.show_type == ShowType::Small {
                settings.texts.sub_title.clone()
            } else {
                String::new()
            },
            desc: settings.texts.desc.clone(),
            guide_text: settings.texts.guide_text.clone(),
            account: if sub_type == Some(SubType::AccountId) {
                settings.texts.wx_id.clone()
            } else {
                String::new()
            },
            avatar: safe_url(&settings.texts.avatar),
            image: image.as_deref().and_then(safe_url),
            show_type: settings.show_type.code(),
            scan_tips: settings.scan_tips,
            button_url: safe_url(&button_url),
            button_label: button_label.into(),
        };
        let template_id = if kind == ChainKind::Card {
            TemplateId(0)
        } else {
            settings.template_id
        };
        let mut template = self.page_template(template_id).await?;
        let pages = &self.inner.pages;
        let html = match pages.render(&template, &jump_page) {
            Ok(html) => html,
            // A page source that checked out when saved can still fail on this chain's text
            // (a loop over a long title running out of fuel): the visitor gets the layout of
            // its style rather than an error page.
            Err(err) if !template.body.is_empty() => {
                tracing::warn!(template = template.id.0, error = %err, "custom page failed; showing its layout");
                template.body.clear();
                pages
                    .render(&template, &jump_page)
                    .map_err(|e| Error::Internal(Box::new(e)))?
            }
            Err(err) => return Err(Error::Internal(Box::new(err))),
        };
        Ok(PageAnswer::Page(html))
    }

    /// The template a page renders with, from the template cache; the generic one when the
    /// template is gone.
    async fn page_template(&self, id: TemplateId) -> Result<Template> {
        let cache = &self.inner.templates;
        let template = match cache.get(&id) {
            Some(t) => t,
            None => {
                let load = cache.begin_load();
                let loaded = self.store().template(id).await?;
                cache.fill(load, id, loaded.clone());
                loaded
            }
        };
        Ok(template.unwrap_or_else(|| Template {
            id: TemplateId(0),
            user_id: None,
            name: "Generic".into(),
            style: "generic".into(),
            kind: TemplateKind::BuiltIn,
            thumb: String::new(),
            body: String::new(),
            created_at: 0,
            updated_at: 0,
            retired_at: None,
        }))
    }

    /// Forgets every cached template (one changed here or on another instance).
    pub(crate) fn forget_templates(&self) {
        self.inner.templates.clear();
    }
}
