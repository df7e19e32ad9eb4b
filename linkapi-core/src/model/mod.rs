//! Domain types: newtype ids, the integer codes of the contract as enums, and the records the
//! services work with. Wire shapes live in [`crate::wire`]; nothing here knows about JSON layout.
//!
//! This file holds the ids and the integer codes of page settings; `scope` the scopes,
//! `account` users and keys, `domain` domains, `chain` chains with their page settings,
//! channels and groups, `options` a short chain's options (redirect status, visit and time
//! limits), `content` templates and uploads, `workchat` work-chat data, `visit`
//! the dimensions visits are broken down by and the kinds of orphan visits, `webhook` webhook endpoints, event types and
//! delivery attempts, [`limits`] the input limits.

mod account;
mod chain;
mod content;
mod conversion;
mod domain;
pub mod limits;
mod options;
mod page;
mod scope;
mod visit;
mod webhook;
mod workchat;

use std::fmt;

use serde::{Deserialize, Serialize};

/// Seconds since the Unix epoch, UTC. The whole crate keeps time in this one unit.
pub type Timestamp = i64;

macro_rules! id_type {
    ($(#[$doc:meta] $name:ident),* $(,)?) => {$(
        #[$doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}

id_type! {
    /// A user: the owner of keys, chains, groups and private domains.
    UserId,
    /// An API key's row id (not its secret).
    KeyId,
    /// A chain of any kind.
    ChainId,
    /// A group of chains.
    GroupId,
    /// A domain chains are served on.
    DomainId,
    /// An uploaded file of one user.
    UploadId,
    /// A jump-page template; 0 is the generic one.
    TemplateId,
    /// A channel (one QR code or URL) of a messaging-app or work-chat chain.
    ChannelId,
    /// A webhook endpoint of one user.
    WebhookId,
}

/// An enum of the contract's integer codes (section 4): `code()` gives the wire integer,
/// `from_code()` reads one and refuses every other value.
macro_rules! int_code {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $code:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant),*
        }

        impl $name {
            /// Every value, in code order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The wire integer.
            pub fn code(self) -> i64 {
                match self {
                    $($name::$variant => $code),*
                }
            }

            /// The value of a wire integer; `None` for any other integer.
            pub fn from_code(code: i64) -> Option<Self> {
                match code {
                    $($code => Some($name::$variant),)*
                    _ => None,
                }
            }

            /// The accepted integers, for error messages: `1, 2, 3`.
            pub fn codes() -> String {
                Self::ALL.iter().map(|v| v.code().to_string()).collect::<Vec<_>>().join(", ")
            }
        }
    };
}

int_code! {
    /// `sub_type`: what a messaging-app chain leads to (contract section 4).
    SubType {
        /// 1: a QR code to scan (`scan_qr_url` or the channels).
        ScanQr = 1,
        /// 2: a messaging-app account ID (`wx_id`) to add.
        AccountId = 2,
        /// 3: a mini-program (`mini_appid` + `mini_path`).
        MiniProgram = 3,
        /// 4: a shop (`shop_appid` + `shop_path`).
        Shop = 4,
        /// 5: a work-chat acquisition URL (`qwhk_url`).
        WorkchatUrl = 5,
    }
}

int_code! {
    /// `show_type`: how the page shows its image.
    ShowType {
        /// 1: a small image (a QR code), with `sub_title` under the heading.
        Small = 1,
        /// 2: a long image across the page.
        Long = 2,
    }
}

int_code! {
    /// `qrcode_vc_type`: what a channel's `visit_limit` caps.
    VisitCap {
        /// 1: visits ever.
        Total = 1,
        /// 2: visits per day.
        Daily = 2,
    }
}

int_code! {
    /// `visit_type`: how a chain picks the channel a visit gets.
    Rotation {
        /// 1: the first usable channel in `sort` order, until its limit or `qrcode_time`.
        SortOrder = 1,
        /// 3: weighted random by `ratio`.
        Weighted = 3,
        /// 4: round robin in `sort` order.
        RoundRobin = 4,
        /// 5: uniform random.
        Uniform = 5,
    }
}

int_code! {
    /// `wxwork_type`: where a work-chat chain leads.
    WorkchatKind {
        /// 1: an acquisition link of the owner's assembly list (`customer_id`).
        Acquisition = 1,
        /// 2: a work-chat URL of the owner's choosing (`target_url`).
        CustomUrl = 2,
    }
}

pub use account::*;
pub use chain::*;
pub use content::*;
pub use conversion::*;
pub use domain::*;
pub use options::*;
pub use page::*;
pub use scope::*;
pub use visit::*;
pub use webhook::*;
pub use workchat::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_round_trip_and_reject_unknown_names() {
        for s in ["chains:read", "card:write", "admin", "*", "workchat:read"] {
            let scope: Scope = s.parse().expect("valid scope");
            assert_eq!(scope.to_string(), s);
        }
        for s in ["chains", "chains:delete", "links:read", "", "admin:read"] {
            assert!(s.parse::<Scope>().is_err(), "{s} should be refused");
        }
    }

    #[test]
    fn the_scope_pattern_names_every_resource() {
        for resource in Resource::ALL {
            assert!(
                SCOPE_PATTERN.contains(&format!("|{}", resource.as_str()))
                    || SCOPE_PATTERN.contains(&format!("({}", resource.as_str())),
                "{} is missing from SCOPE_PATTERN",
                resource.as_str()
            );
        }
    }

    #[test]
    fn write_does_not_imply_read_but_star_implies_everything() {
        let held = [Scope::Write(Resource::Chains)];
        assert!(Scope::Write(Resource::Chains).is_granted_by(&held));
        assert!(!Scope::Read(Resource::Chains).is_granted_by(&held));
        assert!(Scope::Admin.is_granted_by(&[Scope::All]));
        assert!(!Scope::Admin.is_granted_by(&[Scope::Read(Resource::Chains)]));
    }

    #[test]
    fn chain_type_zero_is_a_short_chain() {
        assert_eq!(ChainKind::from_code(0), Some(ChainKind::Short));
        assert_eq!(ChainKind::from_code(5), None);
    }
}
