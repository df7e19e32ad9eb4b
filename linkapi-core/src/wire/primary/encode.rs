//! Primary-surface objects made from the service's records: what handlers answer and what
//! webhook events carry as their `data`, one encoding for both.

use super::{Chain, Conversion, ExportedChain, RedirectRule, Upload};
use crate::clock::format_rfc3339;
use crate::model;
use crate::model::ChainView;

impl From<&ChainView> for Chain {
    fn from(view: &ChainView) -> Self {
        let c = &view.chain;
        Chain {
            id: c.id.0,
            code: c.code.clone(),
            status: view.status.code(),
            status_label: view.status.label().into(),
            target_url: c.target_url.clone(),
            chain_type: c.kind.code(),
            sub_type: c.sub_type,
            domain_id: c.domain.id.0,
            chain_title: c.title.clone(),
            valid_time: c.valid_time,
            render_url: c.render_url(),
            group_id: c.group_ids.first().map(|g| g.0),
            rules: c.rules.iter().map(RedirectRule::from).collect(),
            pv_today: view.views.today,
            pv_history: view.views.history,
            imported_visits: c.imported_visits,
            created_at: format_rfc3339(c.created_at),
            updated_at: format_rfc3339(c.updated_at),
            archived_at: c.archived_at.map(format_rfc3339),
            redirect_status: c.options.redirect_status.map(|s| i64::from(s.code())),
            valid_since: c.options.valid_since,
            max_visits: c.options.max_visits,
            visits_left: c.visits_left(),
            preview_title: preview_part(&c.options, |p| &p.title),
            preview_description: preview_part(&c.options, |p| &p.description),
            preview_image: preview_part(&c.options, |p| &p.image),
        }
    }
}

impl ExportedChain {
    /// The chain of `view` as an export writes it, in the groups named `groups`.
    pub fn new(view: ChainView, groups: Vec<String>) -> Self {
        let c = view.chain;
        let visits_left = c.visits_left();
        ExportedChain {
            rules: c.rules.iter().map(RedirectRule::from).collect(),
            code: c.code,
            domain: c.domain.host,
            target_url: c.target_url,
            chain_title: c.title,
            status: c.stored_status.code(),
            valid_time: c.valid_time,
            created_at: format_rfc3339(c.created_at),
            archived_at: c.archived_at.map(format_rfc3339),
            groups,
            pv_history: view.views.history + c.imported_visits,
            redirect_status: c.options.redirect_status.map_or(0, |s| i64::from(s.code())),
            valid_since: c.options.valid_since,
            max_visits: c.options.max_visits,
            visits_left,
            preview_title: preview_part(&c.options, |p| &p.title),
            preview_description: preview_part(&c.options, |p| &p.description),
            preview_image: preview_part(&c.options, |p| &p.image),
        }
    }
}

/// One part of a chain's preview, `None` when it has none.
fn preview_part(
    options: &model::LinkOptions,
    part: fn(&model::LinkPreview) -> &String,
) -> Option<String> {
    options
        .preview
        .as_ref()
        .map(part)
        .filter(|text| !text.is_empty())
        .cloned()
}

impl From<&model::RedirectRule> for RedirectRule {
    fn from(rule: &model::RedirectRule) -> Self {
        RedirectRule {
            device: rule.device.map(|d| d.name().to_owned()),
            country: rule.country.clone(),
            language: rule.language.clone(),
            query: (!rule.query.is_empty()).then(|| rule.query.clone()),
            target_url: rule.target_url.clone(),
        }
    }
}

impl From<&model::Conversion> for Conversion {
    fn from(c: &model::Conversion) -> Self {
        Conversion {
            event_id: c.event_id.clone(),
            chain_id: c.chain_id.0,
            conv_type: c.conv_type.clone(),
            out_id: c.out_id.clone(),
            clickid: c.clickid.clone(),
            platform: c.platform.clone(),
            ad_platform: c.ad_platform.clone(),
            external_userid: c.external_userid.clone(),
            value_cents: c.value_cents,
            created_at: format_rfc3339(c.created_at),
        }
    }
}

impl Upload {
    /// An upload as answered, its file served at `url`.
    pub(crate) fn located(u: &model::Upload, url: String) -> Self {
        Upload {
            file_id: u.id.0,
            object_key: u.object_key.clone(),
            size_bytes: u.size_bytes,
            url,
            content_type: u.content_type.clone(),
            file_name: u.file_name.clone(),
            created_at: format_rfc3339(u.created_at),
        }
    }
}
