//! Ad-conversion reports: one event per (user, chain, conv_type, out_id), however many
//! instances receive the repeats at once. The unique index of the store decides, not a check
//! before the insert; the event is on disk before the answer.

use super::chain_checks::PageWindow;
use super::webhooks;
use super::{App, Principal, TextRule, check_text};
use crate::error::{Error, Result, names};
use crate::locks::Unpoisoned;
use crate::model::Conversion;
use crate::model::EventData;
use crate::model::limits::{MAX_CONVERSION_TEXT, MAX_OUT_ID};
use crate::model::{ChainId, EventType, Timestamp};
use crate::store::Page;

/// Conversion types that always need `out_id`, besides those the configuration names.
const OUT_ID_REQUIRED: &[&str] = &["purchase"];

/// A report as the caller sent it.
#[derive(Debug, Clone, Default)]
pub struct ConversionReport {
    /// The chain by code.
    pub chain: Option<String>,
    /// The chain by id.
    pub chain_id: Option<ChainId>,
    /// Business event, `[a-z0-9_]{1,32}`.
    pub conv_type: String,
    /// Idempotency token.
    pub out_id: Option<String>,
    /// Ad-click attribution id.
    pub clickid: Option<String>,
    /// Ad platform, free text.
    pub platform: Option<String>,
    /// Caller-side user id.
    pub external_userid: Option<String>,
    /// Monetary value in cents.
    pub value_cents: Option<i64>,
}

/// What a report led to.
#[derive(Debug, Clone)]
pub struct ReportedConversion {
    /// The event that stands: new, or the original of a repeat.
    pub event: Conversion,
    /// Whether the report repeated one already recorded.
    pub duplicate: bool,
}

fn is_conv_type(s: &str) -> bool {
    (1..=32).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

fn is_platform_name(s: &str) -> bool {
    (1..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// An optional text field by the rule of all free text ([`check_text`]: no control or
/// bidirectional characters, at most `max` characters), trimmed; empty is absent.
fn text(field: &'static str, value: Option<String>, max: usize) -> Result<Option<String>> {
    let rule = TextRule {
        max,
        required: false,
        lines: false,
        code: names::INVALID_FIELD,
    };
    match value {
        Some(value) => Ok(Some(check_text(field, &value, rule)?).filter(|v| !v.is_empty())),
        None => Ok(None),
    }
}

/// The last event id this process made, so the next one sorts after it.
static LAST_EVENT_ID: std::sync::Mutex<u128> = std::sync::Mutex::new(0);

/// A unique id that sorts by the time it was made (a ULID), strictly increasing within this
/// process.
fn event_id(now: Timestamp) -> String {
    let seconds = u64::try_from(now).unwrap_or(0);
    // The clock gives seconds; the wall clock's milliseconds order events within one, unless
    // the wall clock is already in another second (read a moment later, or a test clock).
    let wall = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let millis = match wall.as_secs().cmp(&seconds) {
        std::cmp::Ordering::Equal => u64::from(wall.subsec_millis()),
        std::cmp::Ordering::Greater => 999,
        std::cmp::Ordering::Less => 0,
    };
    let candidate = ulid::Ulid::from_parts(seconds * 1000 + millis, rand::random()).0;
    let mut last = LAST_EVENT_ID.lock().unpoisoned();
    // Within one millisecond the random part decides; step past the last id instead.
    *last = if candidate > *last {
        candidate
    } else {
        last.saturating_add(1)
    };
    ulid::Ulid(*last).to_string()
}

impl App {
    /// Records a conversion for one of the caller's chains, or recognises a repeat.
    ///
    /// # Errors
    /// 400 for a bad platform name, conv_type, field, value or a missing required `out_id`; 422
    /// for not exactly one of `chain` and `chain_id`; 404 when the chain is not the caller's.
    pub async fn report_conversion(
        &self,
        who: &Principal,
        ad_platform: &str,
        report: ConversionReport,
    ) -> Result<ReportedConversion> {
        if !is_platform_name(ad_platform) {
            return Err(Error::bad_request(
                names::INVALID_PLATFORM,
                "the ad platform name is 1 to 64 letters, digits, '_', '-' or '.'",
            ));
        }
        let conv_type = report.conv_type.trim().to_owned();
        if !is_conv_type(&conv_type) {
            return Err(Error::bad_request(
                names::INVALID_CONV_TYPE,
                "conv_type is 1 to 32 lower-case letters, digits or '_'",
            ));
        }
        let out_id = text("out_id", report.out_id, MAX_OUT_ID)?;
        let required = OUT_ID_REQUIRED.contains(&conv_type.as_str())
            || self.inner.config.out_id_required.contains(&conv_type);
        if required && out_id.is_none() {
            return Err(Error::bad_request(
                names::MISSING_OUT_ID,
                format!("conv_type {conv_type} requires out_id"),
            ));
        }
        if report.value_cents.is_some_and(|v| v < 0) {
            return Err(Error::bad_request(
                names::INVALID_VALUE,
                "value_cents must not be negative",
            ));
        }
        let chain_id = match (report.chain.filter(|c| !c.is_empty()), report.chain_id) {
            (Some(code), None) => self.own_chain_by_code(who, &code).await?,
            (None, Some(id)) => {
                self.store()
                    .chain(who.user_id, id)
                    .await?
                    .ok_or(Error::NotFound("chain"))?
                    .id
            }
            _ => {
                return Err(Error::unprocessable(
                    names::INVALID_CHAIN_REF,
                    "give exactly one of chain (a code) and chain_id",
                ));
            }
        };
        let now = self.now();
        let user = who.user_id;
        let new = Conversion {
            chain_id,
            conv_type,
            out_id,
            clickid: text("clickid", report.clickid, MAX_CONVERSION_TEXT)?,
            platform: text("platform", report.platform, MAX_CONVERSION_TEXT)?,
            ad_platform: ad_platform.to_owned(),
            external_userid: text(
                "external_userid",
                report.external_userid,
                MAX_CONVERSION_TEXT,
            )?,
            value_cents: report.value_cents,
            event_id: event_id(now),
            created_at: now,
        };
        let (event, inserted) = self
            .transact(move |tx| {
                let new = new.clone();
                Box::pin(async move {
                    let at = new.created_at;
                    let (event, inserted) = tx.insert_conversion(user, new).await?;
                    // A duplicate report records nothing, so it reports nothing either.
                    if inserted {
                        let data = EventData::Conversion(&event);
                        webhooks::emit(tx, user, EventType::ConversionCreated, at, data).await?;
                    }
                    Ok((event, inserted))
                })
            })
            .await?;
        if inserted {
            self.events_committed(user);
        }
        Ok(ReportedConversion {
            event,
            duplicate: !inserted,
        })
    }

    /// The id of the caller's live chain (of any kind) with this code.
    async fn own_chain_by_code(&self, who: &Principal, code: &str) -> Result<ChainId> {
        let found = self.store().chains_by_code(who.user_id, code).await?;
        match found.as_slice() {
            [] => Err(Error::NotFound("chain")),
            [chain] => Ok(chain.id),
            _ => Err(Error::unprocessable(
                names::AMBIGUOUS_CODE,
                format!("you have {code:?} on several domains; give chain_id"),
            )),
        }
    }

    /// A page of the conversions recorded for one of the caller's chains, newest first.
    ///
    /// # Errors
    /// 404 when the chain is not the caller's; 400 for a bad page.
    pub async fn conversions(
        &self,
        who: &Principal,
        chain_id: ChainId,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<(Page<Conversion>, i64, i64)> {
        let window = PageWindow::new(page, page_size)?;
        if self.store().chain(who.user_id, chain_id).await?.is_none() {
            return Err(Error::NotFound("chain"));
        }
        let found = self
            .store()
            .conversions(who.user_id, chain_id, window.offset(), window.size)
            .await?;
        Ok((found, window.page, window.size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversion_types_and_platform_names_follow_their_rules() {
        for ok in ["purchase", "form", "sign_up_2"] {
            assert!(is_conv_type(ok), "{ok}");
        }
        for bad in ["", "Purchase", "buy-now", "x".repeat(33).as_str()] {
            assert!(!is_conv_type(bad), "{bad}");
        }
        assert!(is_platform_name("tencent-ads.v2"));
        assert!(!is_platform_name("bad name"));
    }

    #[test]
    fn event_ids_sort_by_time() {
        let earlier = event_id(1_800_000_000);
        let later = event_id(1_800_000_001);
        assert_eq!(earlier.len(), 26);
        assert!(earlier < later, "{earlier} < {later}");
        assert_ne!(event_id(1_800_000_000), event_id(1_800_000_000));
        let ids: Vec<String> = (0..100).map(|_| event_id(1_800_000_002)).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "strictly increasing");
    }
}
