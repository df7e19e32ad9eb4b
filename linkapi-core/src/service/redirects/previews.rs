//! Short chains with a social preview: a link-preview agent (an agent the visit classifier
//! calls a bot) gets the preview page instead of the redirect, and is not counted; everyone
//! else is redirected as usual.

use super::VisitAnswer;
use crate::model::LinkOptions;
use crate::service::App;
use crate::service::engine::visitors::VisitRequest;

impl App {
    /// The preview page of a chain with `options`, when it has a preview and the visitor is a
    /// link-preview agent; `None` for a redirect.
    pub(super) fn preview_for(
        &self,
        options: Option<&LinkOptions>,
        request: &VisitRequest<'_>,
    ) -> Option<VisitAnswer> {
        let preview = options?.preview.as_ref()?;
        if !self.inner.agents.class(request.user_agent).bot {
            return None;
        }
        Some(VisitAnswer::Page(crate::pages::preview_page(preview)))
    }
}
