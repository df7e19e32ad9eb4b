//! Orphan visits: requests of a short-link domain that reached no chain (its base URL, a code
//! no live chain has, a path that cannot be a code), as the visit pipeline counted them
//! (`redirects::counting`), read per domain and kind over a window of days. An administrator's
//! view: the domains are the deployment's, not a tenant's.

use std::collections::BTreeMap;

use super::App;
use super::stats::{per_window_day, stats_days};
use crate::error::Result;
use crate::model::{DomainId, OrphanKind};

/// Orphan visits over a window of days.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrphanStats {
    /// Days in the window, today included.
    pub days: i64,
    /// Per domain and kind that had any in the window, by domain id then kind.
    pub items: Vec<OrphanItem>,
}

/// One domain's orphan visits of one kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrphanItem {
    /// The domain.
    pub domain_id: DomainId,
    /// Its host; empty for a domain no longer there.
    pub host: String,
    /// What the requests asked for.
    pub kind: OrphanKind,
    /// Requests in the window.
    pub visits: i64,
    /// Requests per day (`YYYY-MM-DD` in the server's time zone), oldest first, ending
    /// today, days without any included.
    pub daily: Vec<(String, i64)>,
}

impl App {
    /// Orphan visits of every domain over the last `days` days (today included; default 7).
    /// Counts reach the store with the next visit flush, as other visits do.
    ///
    /// # Errors
    /// 400 when `days` is outside 1 to 365.
    pub async fn orphan_visits(&self, days: Option<i64>) -> Result<OrphanStats> {
        let days = stats_days(days)?;
        let now = self.now();
        let calendar = &self.config().calendar;
        let window = calendar.last_days(now, days as u32);
        let (from, to) = self.stats_window(days);
        let mut by_key: BTreeMap<(DomainId, OrphanKind), Vec<(i64, i64)>> = BTreeMap::new();
        for row in self.store().orphan_visits(from).await? {
            by_key
                .entry((row.domain_id, row.kind))
                .or_default()
                .push((row.day, row.visits));
        }
        let hosts: std::collections::HashMap<DomainId, String> = self
            .store()
            .domains()
            .await?
            .into_iter()
            .map(|d| (d.id, d.host))
            .collect();
        let items = by_key
            .into_iter()
            .map(|((domain_id, kind), rows)| {
                // Rows come in day order.
                let daily = per_window_day(&window, to, rows, |sum: &mut i64, n| *sum += n);
                OrphanItem {
                    domain_id,
                    host: hosts.get(&domain_id).cloned().unwrap_or_default(),
                    kind,
                    visits: daily.iter().map(|(_, n)| n).sum(),
                    daily,
                }
            })
            .collect();
        Ok(OrphanStats { days, items })
    }
}
