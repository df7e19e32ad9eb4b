//! Listings of the caller's chains: by page, or by `start` and `count` as the original
//! vendor's clients page, with the filters both surfaces offer; and the walk over all of them
//! an export makes.

use std::collections::HashMap;

use super::chain_checks::{PageWindow, check_group_filter, check_search};
use super::{App, Principal};
use crate::error::{Error, Result, names};
use crate::model::limits::{DEFAULT_ROW_COUNT, MAX_ROW_COUNT};
use crate::model::{ChainId, ChainKind, ChainView, GroupId, UserId};
use crate::store::{ChainFilter, ChainQuery, Page};

/// What a listing of the caller's chains asks for. Rows come by page (`page`,
/// `page_size`) or, as the vendor's clients ask, by `start` and `count`; not both.
#[derive(Debug, Clone, Default)]
pub struct ChainListing {
    /// 1-based page (default 1).
    pub page: Option<i64>,
    /// Rows per page (default 20, at most [`crate::model::limits::MAX_PAGE_SIZE`]).
    pub page_size: Option<i64>,
    /// Rows to skip (default 0).
    pub start: Option<i64>,
    /// Rows from `start` (default [`DEFAULT_ROW_COUNT`], at most [`MAX_ROW_COUNT`]).
    pub count: Option<i64>,
    /// Which chains (a group of 0: every group), as the caller gave it; checked here.
    pub filter: ChainFilter,
}

impl ChainListing {
    /// The rows asked for: (offset, limit, page, page size).
    fn window(&self) -> Result<(i64, i64, i64, i64)> {
        if self.start.is_none() && self.count.is_none() {
            let window = PageWindow::new(self.page, self.page_size)?;
            return Ok((window.offset(), window.size, window.page, window.size));
        }
        if self.page.is_some() || self.page_size.is_some() {
            return Err(Error::unprocessable(
                names::INVALID_PAGE_RULE,
                "page by page and page_size, or by start and count, not both",
            ));
        }
        let start = self.start.unwrap_or(0);
        let count = self.count.unwrap_or(DEFAULT_ROW_COUNT);
        if start < 0 {
            return Err(Error::bad_request(
                names::INVALID_PAGE,
                "start must be 0 or more",
            ));
        }
        if !(1..=MAX_ROW_COUNT).contains(&count) {
            return Err(Error::bad_request(
                names::INVALID_PAGE_SIZE,
                format!("count must be 1 to {MAX_ROW_COUNT}"),
            ));
        }
        Ok((start, count, start / count + 1, count))
    }
}

impl App {
    /// A page of the caller's short chains, newest first ([`App::list_chains_of_kind`]).
    ///
    /// # Errors
    /// As [`App::list_chains_of_kind`].
    pub async fn list_short_chains(
        &self,
        who: &Principal,
        listing: ChainListing,
    ) -> Result<(Page<ChainView>, i64, i64)> {
        self.list_chains_of_kind(who, ChainKind::Short, listing)
            .await
    }

    /// A page of the caller's chains of `kind`, newest first (the id breaking ties), with the
    /// page number and size it is (for rows asked by `start` and `count`: the page of that
    /// size `start` falls in).
    ///
    /// # Errors
    /// 400 for a page below 1, a page size outside 1..=100, a negative `start`, a `count`
    /// outside 1..=1000, or a negative group id or time; 422 for paging both ways at once.
    pub async fn list_chains_of_kind(
        &self,
        who: &Principal,
        kind: ChainKind,
        listing: ChainListing,
    ) -> Result<(Page<ChainView>, i64, i64)> {
        let (offset, limit, page, page_size) = listing.window()?;
        let filter = listing.filter;
        for time in [filter.created_from, filter.created_until]
            .into_iter()
            .flatten()
        {
            if time < 0 {
                return Err(Error::bad_request(
                    names::INVALID_TIME,
                    "begin_date and end_date are Unix seconds, 0 or more",
                ));
            }
        }
        let query = ChainQuery {
            kinds: vec![kind],
            filter: ChainFilter {
                group_id: check_group_filter(filter.group_id)?,
                text: check_search(filter.text)?,
                ..filter
            },
            offset,
            limit,
        };
        let found = self.store().chains(who.user_id, &query).await?;
        let items = self.view(found.items).await?;
        Ok((
            Page {
                items,
                total: found.total,
            },
            page,
            page_size,
        ))
    }
}

/// Chains an export reads at a time: what one export holds in memory, whatever its size.
pub const EXPORT_PAGE: i64 = 200;

/// A chain as an export writes it: the chain and its visits, and the names of its groups.
#[derive(Debug, Clone)]
pub struct ExportedChain {
    /// The chain and its visits.
    pub view: ChainView,
    /// Names of its groups, in its order.
    pub groups: Vec<String>,
}

/// Where an export is: the last chain written, and the caller's group names as last read.
struct ExportWalk {
    app: App,
    user: UserId,
    after: ChainId,
    groups: HashMap<GroupId, String>,
}

impl ExportWalk {
    /// The next page, `None` past the last chain.
    async fn next(mut self) -> Result<Option<(Vec<ExportedChain>, ExportWalk)>> {
        let store = self.app.store();
        let chains = store
            .chains_after(self.user, &[ChainKind::Short], self.after, EXPORT_PAGE)
            .await?;
        let Some(last) = chains.last() else {
            return Ok(None);
        };
        self.after = last.id;
        // A group made since the names were read: read them again, once for the page.
        let known = |groups: &HashMap<GroupId, String>| {
            chains
                .iter()
                .flat_map(|c| &c.group_ids)
                .all(|g| groups.contains_key(g))
        };
        if !known(&self.groups) {
            self.groups = store
                .groups(self.user)
                .await?
                .into_iter()
                .map(|g| (g.id, g.name))
                .collect();
        }
        let views = self.app.view(chains).await?;
        let page = views
            .into_iter()
            .map(|view| {
                let groups = view
                    .chain
                    .group_ids
                    .iter()
                    .filter_map(|g| self.groups.get(g).cloned())
                    .collect();
                ExportedChain { view, groups }
            })
            .collect();
        Ok(Some((page, self)))
    }
}

impl App {
    /// Every live short chain of the caller, in id order, [`EXPORT_PAGE`] at a time, each
    /// page read when the one before has been taken: an export of any size holds one page,
    /// and meets each chain once (those created while it runs, at its end).
    pub fn export_short_chains(
        &self,
        who: &Principal,
    ) -> impl futures_util::Stream<Item = Result<Vec<ExportedChain>>> + Send + 'static {
        let walk = ExportWalk {
            app: self.clone(),
            user: who.user_id,
            after: ChainId(0),
            groups: HashMap::new(),
        };
        futures_util::stream::try_unfold(walk, ExportWalk::next)
    }
}
