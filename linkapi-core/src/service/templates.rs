//! Jump-page templates: the built-in ones (rows 0, 1 and 2, shipped with the server), and the
//! custom ones administrators add, edit and retire. A user sees the live shared templates and
//! those offered to them alone; `used_num` counts the templates (other than the generic one)
//! their live chains use, against `template_limit`.
//!
//! A custom template either names a built-in layout (`style`) or carries its own page source
//! (`body`), a minijinja template checked to compile when it is saved. Administrators are
//! trusted with page sources; every value a page shows is escaped by the engine.

use super::chain_checks::PageWindow;
use super::{App, BodyError, Principal};
use crate::codes::validate_optional_url;
use crate::error::{Error, Result, names};
use crate::model::limits::{MAX_TEMPLATE_BODY, MAX_TEMPLATE_NAME};
use crate::model::{Template, TemplateId, UserId};
use crate::pages::{JumpPage, safe_url};
use crate::store::{Invalidation, NewTemplate, Page, TemplatePatch, Tx};

/// Layouts shipped with the server, by `style` name.
pub const BUILT_IN_STYLES: &[&str] = &["generic", "card", "poster"];

/// Inside a transaction about to give one of `user`'s chains `template` (not the generic
/// one): refuses it when it would be one template more than `limit` among those the user's live
/// chains use. The user's row is locked before counting, so concurrent choices of new templates
/// are counted one after another, on every instance, and the limit is exact.
pub(super) async fn check_template_limit(
    tx: &mut dyn Tx,
    user: UserId,
    template: TemplateId,
    limit: i64,
) -> std::result::Result<(), BodyError> {
    tx.lock_user(user).await?;
    let in_use = tx.templates_in_use(user).await?;
    let used = in_use.iter().filter(|t| t.0 != 0).count() as i64;
    if !in_use.contains(&template) && used >= limit {
        return Err(BodyError::Rule(Error::unprocessable(
            names::TEMPLATE_LIMIT_REACHED,
            format!("your chains already use {used} templates, the limit is {limit}"),
        )));
    }
    Ok(())
}

/// A custom template as an administrator describes it.
#[derive(Debug, Clone, Default)]
pub struct NewTemplateInput {
    /// Offered only to this user; `None` to everyone.
    pub user_id: Option<UserId>,
    /// Display name.
    pub name: String,
    /// Built-in layout; `generic` when absent.
    pub style: Option<String>,
    /// Thumbnail URL.
    pub thumb: Option<String>,
    /// Page source.
    pub body: Option<String>,
}

/// What a user's template listing shows.
#[derive(Debug, Clone)]
pub struct TemplateListing {
    /// This page of the templates offered to the user.
    pub page: Page<Template>,
    /// Templates the user's live chains use.
    pub in_use: Vec<TemplateId>,
    /// How many of those count against the limit (all but the generic one).
    pub used_num: i64,
    /// The limit.
    pub template_limit: i64,
    /// Page number and size.
    pub page_number: i64,
    /// Rows per page.
    pub page_size: i64,
}

fn check_name(name: &str) -> Result<String> {
    super::check_text(
        "name",
        name,
        super::TextRule {
            max: MAX_TEMPLATE_NAME,
            required: true,
            lines: false,
            code: names::INVALID_NAME,
        },
    )
}

fn check_style(style: &str) -> Result<String> {
    if BUILT_IN_STYLES.contains(&style) {
        Ok(style.to_owned())
    } else {
        Err(Error::bad_request(
            names::INVALID_STYLE,
            format!("style must be one of {}", BUILT_IN_STYLES.join(", ")),
        ))
    }
}

fn check_thumb(thumb: &str) -> Result<String> {
    validate_optional_url(thumb)
        .map_err(|e| Error::bad_request(names::INVALID_THUMB, format!("thumb: {e}")))
}

/// A page source must be short (400), compile, and render an empty page within the engine's
/// fuel (422).
pub(crate) fn check_template_body(body: &str) -> Result<String> {
    if body.chars().count() > MAX_TEMPLATE_BODY {
        return Err(Error::bad_request(
            names::INVALID_BODY,
            format!("body is longer than {MAX_TEMPLATE_BODY} characters"),
        ));
    }
    // Whether text is a template that renders is a rule no schema can state: 422.
    if !body.is_empty() {
        crate::pages::check_source(body).map_err(|e| {
            Error::unprocessable(
                names::INVALID_BODY_RULE,
                format!("body is not a usable template: {e}"),
            )
        })?;
    }
    Ok(body.to_owned())
}

impl App {
    /// The templates offered to the caller, a page at a time, with what their chains use.
    ///
    /// # Errors
    /// 400 for a bad page.
    pub async fn templates(
        &self,
        who: &Principal,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<TemplateListing> {
        let window = PageWindow::new(page, page_size)?;
        let found = self
            .store()
            .templates(Some(who.user_id), window.offset(), window.size)
            .await?;
        let in_use = self.store().templates_in_use(who.user_id).await?;
        let used_num = in_use.iter().filter(|id| id.0 != 0).count() as i64;
        Ok(TemplateListing {
            page: found,
            in_use,
            used_num,
            template_limit: self.config().template_limit,
            page_number: window.page,
            page_size: window.size,
        })
    }

    /// Every template, retired ones included (administration).
    ///
    /// # Errors
    /// 400 for a bad page.
    pub async fn all_templates(
        &self,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<(Page<Template>, i64, i64)> {
        let window = PageWindow::new(page, page_size)?;
        let found = self
            .store()
            .templates(None, window.offset(), window.size)
            .await?;
        Ok((found, window.page, window.size))
    }

    /// Adds a custom template.
    ///
    /// # Errors
    /// 400 for a bad name, style, thumbnail or page source; 422 for an unknown user.
    pub async fn add_template(&self, input: NewTemplateInput) -> Result<Template> {
        if let Some(user) = input.user_id
            && self.store().user(user).await?.is_none()
        {
            return Err(Error::unprocessable(names::INVALID_USER, "no such user"));
        }
        let new = NewTemplate {
            user_id: input.user_id,
            name: check_name(&input.name)?,
            style: check_style(input.style.as_deref().unwrap_or("generic"))?,
            thumb: check_thumb(input.thumb.as_deref().unwrap_or(""))?,
            body: check_template_body(input.body.as_deref().unwrap_or(""))?,
            created_at: self.now(),
        };
        Ok(self
            .transact(move |tx| {
                let new = new.clone();
                Box::pin(async move {
                    let template = tx.insert_template(new).await?;
                    tx.publish(Invalidation::Templates).await?;
                    Ok(template)
                })
            })
            .await?)
    }

    /// Changes a custom template.
    ///
    /// # Errors
    /// 400 for bad values or an empty patch; 409 for a built-in template; 404 when there is no such
    /// live template (a retired one is out of administration, as its preview is).
    pub async fn edit_template(
        &self,
        id: TemplateId,
        name: Option<String>,
        style: Option<String>,
        thumb: Option<String>,
        body: Option<String>,
    ) -> Result<Template> {
        let patch = TemplatePatch {
            name: name.as_deref().map(check_name).transpose()?,
            style: style.as_deref().map(check_style).transpose()?,
            thumb: thumb.as_deref().map(check_thumb).transpose()?,
            body: body.as_deref().map(check_template_body).transpose()?,
        };
        if patch.name.is_none()
            && patch.style.is_none()
            && patch.thumb.is_none()
            && patch.body.is_none()
        {
            return Err(Error::bad_request(
                names::EMPTY_UPDATE,
                "give name, style, thumb or body",
            ));
        }
        self.refuse_built_in(id).await?;
        let at = self.now();
        self.transact(move |tx| {
            let patch = patch.clone();
            Box::pin(async move {
                let template = tx.update_template(id, &patch, at).await?;
                tx.publish(Invalidation::Templates).await?;
                Ok(template)
            })
        })
        .await?
        .ok_or(Error::NotFound("template"))
    }

    /// Retires a custom template: no longer offered; chains that use it keep it.
    ///
    /// # Errors
    /// 409 for a built-in template; 404 when there is no such live template.
    pub async fn retire_template(&self, id: TemplateId) -> Result<Template> {
        self.refuse_built_in(id).await?;
        let at = self.now();
        self.transact(move |tx| {
            Box::pin(async move {
                let template = tx.retire_template(id, at).await?;
                tx.publish(Invalidation::Templates).await?;
                Ok(template)
            })
        })
        .await?
        .ok_or(Error::NotFound("template"))
    }

    /// A template's page filled with sample text (administration), to see it before chains use
    /// it, showing `image` (an http(s) URL, e.g. an uploaded QR code) as a small (show_type 1)
    /// or long (2) image.
    ///
    /// # Errors
    /// 400 for an image that is not an http(s) URL or a show_type other than 1 or 2; 404 when
    /// there is no such template.
    pub async fn preview_template(
        &self,
        id: TemplateId,
        image: Option<&str>,
        show_type: Option<i64>,
    ) -> Result<String> {
        let image = match image {
            None => None,
            // The one URL rule, then the page's own: what reaches an attribute is safe_url's.
            Some(raw) => Some(
                crate::codes::validate_target_url(raw)
                    .ok()
                    .and_then(|url| safe_url(&url))
                    .ok_or_else(|| {
                        Error::bad_request(names::INVALID_IMAGE_URL, "image must be an http(s) URL")
                    })?,
            ),
        };
        let show_type = show_type.unwrap_or(1);
        if !matches!(show_type, 1 | 2) {
            return Err(Error::bad_request(
                names::INVALID_SHOW_TYPE,
                "show_type is 1 (small image) or 2 (long image)",
            ));
        }
        // A retired template is gone from administration (chains that use it still show it).
        let template = self
            .store()
            .template(id)
            .await?
            .filter(|t| t.retired_at.is_none())
            .ok_or(Error::NotFound("template"))?;
        let sample = JumpPage {
            title: "Spring sale".into(),
            sub_title: "Scan to join the group".into(),
            desc: "New arrivals every week.\nMembers get early access.".into(),
            guide_text: "Add us to get your coupon.".into(),
            account: String::new(),
            avatar: None,
            image,
            show_type,
            scan_tips: true,
            button_url: safe_url("weixin://dl/business/?appid=wx0000000000000000&path=pages/index"),
            button_label: "Open in the app".into(),
        };
        self.inner
            .pages
            .render(&template, &sample)
            .map_err(|err| Error::unprocessable(names::INVALID_BODY_RULE, err.to_string()))
    }

    async fn refuse_built_in(&self, id: TemplateId) -> Result<()> {
        match self.store().template(id).await? {
            None => Err(Error::NotFound("template")),
            Some(t) if t.kind == crate::model::TemplateKind::BuiltIn => Err(Error::Conflict {
                code: names::BUILT_IN_TEMPLATE,
                message: "built-in templates cannot be changed or retired".into(),
            }),
            Some(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_styles_and_bodies_are_checked() {
        assert!(check_name("  Spring  ").is_ok_and(|n| n == "Spring"));
        assert!(check_name("").is_err());
        assert!(check_name("a\u{0}b").is_err());
        assert!(check_style("card").is_ok());
        assert!(check_style("fancy").is_err());
        assert!(check_template_body("<p>{{ title }}</p>").is_ok());
        assert!(check_template_body("<p>{{ title </p>").is_err());
        assert!(check_thumb("javascript:alert(1)").is_err());
        assert!(check_thumb("").is_ok());
    }
}
