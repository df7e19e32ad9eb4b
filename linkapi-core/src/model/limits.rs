//! The limits of what a request may give, in one place: the services enforce them and the
//! wire types' schemas state them, so the two cannot drift apart.

/// Largest page of a listing.
pub const MAX_PAGE_SIZE: i64 = 100;
/// Most rows of a listing asked for by `start` and `count` (the vendor's `getChainList`).
pub const MAX_ROW_COUNT: i64 = 1000;
/// Rows of such a listing when `count` is not given.
pub const DEFAULT_ROW_COUNT: i64 = 100;
/// Longest chain title.
pub const MAX_TITLE_CHARS: usize = 255;

/// Largest `max_visits` of a short chain: a trillion visits, more than any link gets.
pub const MAX_VISITS_LIMIT: i64 = 1_000_000_000_000;
/// Longest preview description, in characters (a card shows a few lines of it).
pub const MAX_PREVIEW_TEXT: usize = 1000;
/// Longest user, key or group name.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest host name, in characters (DNS's limit).
pub const MAX_HOST_NAME: usize = 253;
/// Longest window of the daily trend.
pub const MAX_STATS_DAYS: i64 = 365;
/// Longest `sub_title`, in characters (spec 8.2).
pub const MAX_SUB_TITLE: usize = 20;
/// Longest guide text and description, in characters.
pub const MAX_PAGE_TEXT: usize = 2000;
/// Longest `out_id` of a conversion report.
pub const MAX_OUT_ID: usize = 128;
/// Longest free-text field of a conversion report (`clickid`, `platform`, `external_userid`).
pub const MAX_CONVERSION_TEXT: usize = 256;
/// Most live channels a chain may have.
pub const MAX_CHANNELS: usize = 100;
/// Longest app id, account id or channel name.
pub const MAX_JUMP_NAME: usize = 64;
/// Longest mini-program or shop path.
pub const MAX_APP_PATH: usize = 512;
/// Largest `ratio`.
pub const MAX_RATIO: i64 = 1_000_000;
/// Largest `visit_limit`.
pub const MAX_VISIT_LIMIT: i64 = 1_000_000_000;
/// Longest template name, in characters.
pub const MAX_TEMPLATE_NAME: usize = 64;
/// Longest page source, in characters (as a schema's `maxLength` counts).
pub const MAX_TEMPLATE_BODY: usize = 64 << 10;
/// Longest work-chat name, status text or reason.
pub const MAX_WORKCHAT_TEXT: usize = 256;
/// Most transfer records an administrator loads in one request.
pub const MAX_TRANSFERS_PER_LOAD: usize = 1000;
/// Most chains one bulk create makes.
pub const MAX_BULK_CHAINS: usize = 10_000;
/// Most values of a breakdown listed.
pub const MAX_BREAKDOWN_LIMIT: i64 = 100;
/// Smallest and largest side of a QR code image, in pixels.
pub const QR_SIZES: std::ops::RangeInclusive<u32> = 64..=2048;
