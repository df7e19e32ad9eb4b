//! Work-chat data: each user's assembly list (customer-acquisition links that work-chat chains
//! lead to) and customer-ownership transfer results.
//!
//! Handlers and other services reach this data only through [`WorkchatProvider`]. The embedded
//! provider, [`StoredWorkchat`], answers from what administrators load into the store
//! (`/admin/workchat/...`); a live integration with the work-chat's own API implements the
//! same trait and nothing else changes.

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;

use super::chain_checks::PageWindow;
use super::{App, Principal};
use crate::codes::validate_target_url;
use crate::error::{Error, Result, names};
use crate::model::limits::{MAX_TRANSFERS_PER_LOAD, MAX_WORKCHAT_TEXT};
use crate::model::{Assembly, Transfer, UserId};
use crate::store::{AssemblyInput, Page, Store, TransferQuery};

/// Transfer results per answer; `next_cursor` leads to the rest.
pub const TRANSFERS_PER_PAGE: i64 = 100;
/// Longest corp, user or link id.
const MAX_ID: usize = 128;

/// Where work-chat data comes from.
#[async_trait]
pub trait WorkchatProvider: Send + Sync {
    /// A page of the user's assembly list, oldest first.
    async fn assemblies(&self, user: UserId, offset: i64, limit: i64) -> Result<Page<Assembly>>;
    /// One entry of the user's assembly list.
    async fn assembly(&self, user: UserId, id: i64) -> Result<Option<Assembly>>;
    /// Transfers matching `query`, in a stable order the cursor follows.
    async fn transfers(&self, query: &TransferQuery) -> Result<Vec<Transfer>>;
}

/// The embedded provider: data administrators loaded into the store.
pub struct StoredWorkchat(pub Arc<dyn Store>);

#[async_trait]
impl WorkchatProvider for StoredWorkchat {
    async fn assemblies(&self, user: UserId, offset: i64, limit: i64) -> Result<Page<Assembly>> {
        Ok(self.0.assemblies(user, offset, limit).await?)
    }

    async fn assembly(&self, user: UserId, id: i64) -> Result<Option<Assembly>> {
        Ok(self.0.assembly(user, id).await?)
    }

    async fn transfers(&self, query: &TransferQuery) -> Result<Vec<Transfer>> {
        Ok(self.0.transfers(query).await?)
    }
}

/// One page of transfer results (spec 4.4).
#[derive(Debug, Clone, Default)]
pub struct TransferResults {
    /// The transfers of this page.
    pub results: Vec<Transfer>,
    /// Customer names by external user id.
    pub names: BTreeMap<String, String>,
    /// Failure reasons by external user id, for the transfers that have one.
    pub reasons: BTreeMap<String, String>,
    /// Pass back as `cursor` for the next page; empty on the last page.
    pub next_cursor: String,
}

/// An administrator's transfer record for [`App::load_transfers`].
#[derive(Debug, Clone, Default)]
pub struct TransferRecord {
    /// The customer.
    pub external_userid: String,
    /// The customer's name.
    pub name: String,
    /// 1 to 5 (contract section 4).
    pub status: i64,
    /// When the takeover happened, 0 if it has not.
    pub takeover_time: i64,
    /// The work-chat's error code.
    pub errcode: i64,
    /// Why it failed.
    pub reason: String,
}

fn bad(code: names::Name<400>, message: impl Into<String>) -> Error {
    Error::bad_request(code, message)
}

fn unprocessable(code: names::Name<422>, message: impl Into<String>) -> Error {
    Error::unprocessable(code, message)
}

/// An id of the work-chat (corp, user, link): printable, no spaces, not empty.
/// A work-chat id (corp, user, customer): 1 to [`MAX_ID`] printable ASCII characters, as the
/// work-chat service issues them and the schemas state (`[!-~]`).
fn work_id(field: &str, value: &str) -> Result<String> {
    if value.is_empty()
        || value.len() > MAX_ID
        || !value.bytes().all(|b| (b'!'..=b'~').contains(&b))
    {
        return Err(bad(
            names::INVALID_ID,
            format!("{field} must be 1 to {MAX_ID} printable ASCII characters, without spaces"),
        ));
    }
    Ok(value.to_owned())
}

fn text(field: &str, value: &str) -> Result<String> {
    super::check_text(
        field,
        value,
        super::TextRule {
            max: MAX_WORKCHAT_TEXT,
            required: false,
            lines: false,
            code: names::INVALID_TEXT,
        },
    )
}

/// The cursor after the transfer with row id `id`. Opaque to clients.
fn cursor_after(id: i64) -> String {
    format!("t{id}")
}

fn parse_cursor(cursor: &str) -> Result<i64> {
    if cursor.is_empty() {
        return Ok(0);
    }
    cursor
        .strip_prefix('t')
        .and_then(|id| id.parse::<i64>().ok())
        .filter(|id| *id >= 0)
        .ok_or_else(|| {
            bad(
                names::INVALID_CURSOR,
                "cursor must be empty or a next_cursor this server returned",
            )
        })
}

impl App {
    /// An entry of the caller's assembly list.
    pub(crate) async fn assembly(&self, who: &Principal, id: i64) -> Result<Option<Assembly>> {
        let found = self.inner.workchat.assembly(who.user_id, id).await?;
        match found {
            Some(a) if a.use_status == crate::model::use_status::INVALID => Err(unprocessable(
                names::INVALID_CUSTOMER,
                format!("assembly entry {id} is marked invalid"),
            )),
            other => Ok(other),
        }
    }

    /// A page of the caller's assembly list.
    ///
    /// # Errors
    /// 400 for a bad page.
    pub async fn assemblies(
        &self,
        who: &Principal,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<(Page<Assembly>, i64, i64)> {
        self.assemblies_of(who.user_id, page, page_size).await
    }

    /// A page of one user's assembly list (administration).
    ///
    /// # Errors
    /// 400 for a bad page.
    pub async fn assemblies_of(
        &self,
        user: UserId,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<(Page<Assembly>, i64, i64)> {
        let window = PageWindow::new(page, page_size)?;
        let found = self
            .inner
            .workchat
            .assemblies(user, window.offset(), window.size)
            .await?;
        Ok((found, window.page, window.size))
    }

    /// Adds an entry to a user's assembly list, or changes the one with the same `link_id`
    /// (administration).
    ///
    /// # Errors
    /// 400 for invalid fields; 422 for an unknown user.
    pub async fn put_assembly(
        &self,
        user: UserId,
        link_id: &str,
        link_name: &str,
        url: &str,
        auth_status: &str,
        invalid: bool,
    ) -> Result<Assembly> {
        if self.store().user(user).await?.is_none() {
            return Err(unprocessable(
                names::INVALID_USER,
                format!("no user {user}"),
            ));
        }
        let entry = AssemblyInput {
            user_id: user,
            link_id: work_id("link_id", link_id)?,
            link_name: text("link_name", link_name)?,
            url: validate_target_url(url)
                .map_err(|e| bad(names::INVALID_URL, format!("url: {e}")))?,
            auth_status: text("auth_status", auth_status)?,
            invalid,
            created_at: self.now(),
        };
        Ok(self
            .transact(move |tx| {
                let entry = entry.clone();
                Box::pin(async move { tx.put_assembly(&entry).await })
            })
            .await?)
    }

    /// Records transfers of one corp from one work-chat user to another (administration),
    /// all or none; a record for a customer already recorded replaces it.
    ///
    /// # Errors
    /// 422 for an unknown user; 400 for invalid ids, a status outside 1..=5, or too many records.
    pub async fn load_transfers(
        &self,
        user: UserId,
        corp_id: &str,
        handover_userid: &str,
        takeover_userid: &str,
        records: Vec<TransferRecord>,
    ) -> Result<usize> {
        if self.store().user(user).await?.is_none() {
            return Err(unprocessable(
                names::INVALID_USER,
                format!("no user {user}"),
            ));
        }
        if records.is_empty() || records.len() > MAX_TRANSFERS_PER_LOAD {
            return Err(bad(
                names::INVALID_RECORDS,
                format!("give 1 to {MAX_TRANSFERS_PER_LOAD} records"),
            ));
        }
        let corp_id = work_id("corp_id", corp_id)?;
        let handover = work_id("handover_userid", handover_userid)?;
        let takeover = work_id("takeover_userid", takeover_userid)?;
        let transfers = records
            .into_iter()
            .map(|r| {
                if !(1..=5).contains(&r.status) {
                    return Err(bad(
                        names::INVALID_CODE,
                        "status must be one of 1, 2, 3, 4, 5",
                    ));
                }
                if r.takeover_time < 0 {
                    return Err(bad(names::INVALID_TIME, "takeover_time is Unix seconds"));
                }
                Ok(Transfer {
                    id: 0,
                    user_id: user,
                    corp_id: corp_id.clone(),
                    handover_userid: handover.clone(),
                    takeover_userid: takeover.clone(),
                    external_userid: work_id("external_userid", &r.external_userid)?,
                    customer_name: text("name", &r.name)?,
                    status: r.status,
                    takeover_time: r.takeover_time,
                    errcode: r.errcode,
                    reason: text("reason", &r.reason)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let at = self.now();
        let count = transfers.len();
        let transfers = Arc::new(transfers);
        self.transact(move |tx| {
            let transfers = transfers.clone();
            Box::pin(async move {
                for t in transfers.iter() {
                    tx.put_transfer(t, at).await?;
                }
                Ok(())
            })
        })
        .await?;
        Ok(count)
    }

    /// A page of the caller's transfer results of one corp (spec 4.4).
    ///
    /// # Errors
    /// 400 for a missing corp id or a cursor this server did not hand out.
    pub async fn transfer_results(
        &self,
        who: &Principal,
        corp_id: &str,
        handover_userid: &str,
        takeover_userid: &str,
        cursor: &str,
    ) -> Result<TransferResults> {
        let corp_id = work_id("corp_id", corp_id)?;
        let query = TransferQuery {
            user_id: who.user_id,
            corp_id,
            handover_userid: handover_userid.trim().to_owned(),
            takeover_userid: takeover_userid.trim().to_owned(),
            after: parse_cursor(cursor.trim())?,
            limit: TRANSFERS_PER_PAGE + 1,
        };
        let mut results = self.inner.workchat.transfers(&query).await?;
        let more = results.len() as i64 > TRANSFERS_PER_PAGE;
        results.truncate(TRANSFERS_PER_PAGE as usize);
        let next_cursor = match results.last() {
            Some(last) if more => cursor_after(last.id),
            _ => String::new(),
        };
        let names = results
            .iter()
            .map(|t| (t.external_userid.clone(), t.customer_name.clone()))
            .collect();
        let reasons = results
            .iter()
            .filter(|t| !t.reason.is_empty())
            .map(|t| (t.external_userid.clone(), t.reason.clone()))
            .collect();
        Ok(TransferResults {
            results,
            names,
            reasons,
            next_cursor,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_foreign_ones_are_refused() {
        assert_eq!(parse_cursor("").ok(), Some(0));
        assert_eq!(parse_cursor(&cursor_after(41)).ok(), Some(41));
        for bad in ["41", "t-1", "tx", "t1 OR 1=1"] {
            assert!(parse_cursor(bad).is_err(), "{bad}");
        }
    }
}
