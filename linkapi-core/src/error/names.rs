//! Every stable short name the primary error envelope carries in `code`, as a constant typed by
//! the HTTP status it answers with: `Name<400>` goes only into a 400, `Name<422>` only into a
//! 422, so a name cannot reach a client at a status the interface does not list for it, and a
//! typo is a compile error instead of a new name. A name answered at two statuses (a malformed
//! value and a rule about it) has a constant for each, the second one's identifier saying
//! which (`_MALFORMED` for the 400 of a name that is mostly a 422, `_RULE` for the 422 of one
//! that is mostly a 400). [`ALL`] lists them for the test that holds them equal to the table
//! in `docs/interface.md`.

/// A short name answered with HTTP status `STATUS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Name<const STATUS: u16>(&'static str);

impl<const STATUS: u16> Name<STATUS> {
    /// The name as clients see it.
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

/// Declares each name as a constant and lists them all in [`ALL`].
macro_rules! names {
    ($( $(#[$doc:meta])* $konst:ident: $status:literal = $name:literal; )*) => {
        $( $(#[$doc])* pub const $konst: Name<$status> = Name($name); )*

        /// Every name with its status, as `docs/interface.md` tables them.
        pub const ALL: &[(&str, u16)] = &[ $( ($name, $status) ),* ];
    };
}

names! {
    // 400: the request does not match its operation's schema.
    /// The body is not JSON (or not JSON to its last field).
    INVALID_JSON: 400 = "invalid_json";
    /// A field is missing, of the wrong type, or unknown; a body that is not an object.
    INVALID_FIELD: 400 = "invalid_field";
    /// A query string that does not decode, or search text with control characters.
    INVALID_QUERY: 400 = "invalid_query";
    /// Two `Host` headers, or none in HTTP/1.1.
    INVALID_HOST: 400 = "invalid_host";
    /// A body that could not be read from the connection.
    BAD_BODY: 400 = "bad_body";
    /// A target that is not an http(s) URL, too long, or with credentials.
    INVALID_TARGET_URL: 400 = "invalid_target_url";
    /// A custom code with bad characters or length, or reserved.
    INVALID_CODE: 400 = "invalid_code";
    /// Redirect rules that are not valid.
    INVALID_RULES: 400 = "invalid_rules";
    /// A `valid_time` past 9999-12-31.
    INVALID_VALID_TIME_MALFORMED: 400 = "invalid_valid_time";
    /// A `redirect_status` other than 301, 302, 307 or 308 (or 0).
    INVALID_REDIRECT_STATUS: 400 = "invalid_redirect_status";
    /// A `max_visits` below 0 or past the limit.
    INVALID_MAX_VISITS: 400 = "invalid_max_visits";
    /// A `valid_since` below 0 or past 9999-12-31.
    INVALID_VALID_SINCE_MALFORMED: 400 = "invalid_valid_since";
    /// A preview's title or description too long or with refused characters, or an image
    /// that is not an http(s) URL.
    INVALID_PREVIEW: 400 = "invalid_preview";
    /// A title too long or with refused characters.
    INVALID_TITLE: 400 = "invalid_title";
    /// A name too long, empty, or with refused characters.
    INVALID_NAME: 400 = "invalid_name";
    /// Page or work-chat text too long or with refused characters.
    INVALID_TEXT: 400 = "invalid_text";
    /// A work-chat id (corp, user, customer) that is not 1 to 64 printable ASCII characters.
    INVALID_ID: 400 = "invalid_id";
    /// A malformed host on admin input.
    INVALID_DOMAIN_MALFORMED: 400 = "invalid_domain";
    /// A negative group filter.
    INVALID_GROUP_MALFORMED: 400 = "invalid_group";
    /// Not a chain type.
    INVALID_CHAIN_TYPE: 400 = "invalid_chain_type";
    /// A page below 1 (or a row start below 0).
    INVALID_PAGE: 400 = "invalid_page";
    /// A page size (or row count) out of range.
    INVALID_PAGE_SIZE: 400 = "invalid_page_size";
    /// Creation times to filter by that are not Unix seconds.
    INVALID_TIME: 400 = "invalid_time";
    /// Statistics days out of range.
    INVALID_DAYS: 400 = "invalid_days";
    /// A statistics limit out of range.
    INVALID_LIMIT: 400 = "invalid_limit";
    /// An edit that changes nothing.
    EMPTY_UPDATE: 400 = "empty_update";
    /// A delete that names nothing.
    EMPTY_DELETE: 400 = "empty_delete";
    /// No items, or more than a bulk create takes.
    TOO_MANY_CHAINS: 400 = "too_many_chains";
    /// More files than one upload request takes.
    TOO_MANY_FILES: 400 = "too_many_files";
    /// A scope name that does not exist.
    INVALID_SCOPE: 400 = "invalid_scope";
    /// A quota out of range.
    INVALID_QUOTA: 400 = "invalid_quota";
    /// A domain scheme other than http or https.
    INVALID_SCHEME: 400 = "invalid_scheme";
    /// A domain status other than 1 or 99.
    INVALID_STATUS: 400 = "invalid_status";
    /// An expiry past 9999-12-31.
    INVALID_EXPIRY_MALFORMED: 400 = "invalid_expiry";
    /// An initial API key that is too short or has spaces.
    INVALID_INITIAL_KEY: 400 = "invalid_initial_key";
    /// A conversion type that is not 1 to 32 of `[a-z0-9_]`.
    INVALID_CONV_TYPE: 400 = "invalid_conv_type";
    /// A conversion type that needs `out_id` without one.
    MISSING_OUT_ID: 400 = "missing_out_id";
    /// An ad platform name that is not 1 to 64 of letters, digits, `_`, `-`, `.`.
    INVALID_PLATFORM: 400 = "invalid_platform";
    /// A negative conversion value.
    INVALID_VALUE: 400 = "invalid_value";
    /// A URL field (a channel's, a work-chat link's) that is not an http(s) URL.
    INVALID_URL: 400 = "invalid_url";
    /// An app page path, or a messaging-app id, that is not what its destination takes.
    INVALID_DESTINATION: 400 = "invalid_destination";
    /// More channels than a chain takes.
    TOO_MANY_CHANNELS: 400 = "too_many_channels";
    /// A work-chat cursor this server did not give.
    INVALID_CURSOR: 400 = "invalid_cursor";
    /// A work-chat load of no records or too many.
    INVALID_RECORDS: 400 = "invalid_records";
    /// A channel field out of range.
    INVALID_CHANNEL_MALFORMED: 400 = "invalid_channel";
    /// A negative template id.
    INVALID_TEMPLATE_MALFORMED: 400 = "invalid_template";
    /// A jump template on a card chain.
    TEMPLATE_NOT_ALLOWED: 400 = "template_not_allowed";
    /// An image URL that is not an http(s) URL.
    INVALID_IMAGE_URL: 400 = "invalid_image_url";
    /// A `show_type` other than 1 or 2.
    INVALID_SHOW_TYPE: 400 = "invalid_show_type";
    /// A QR format other than png or svg.
    INVALID_FORMAT: 400 = "invalid_format";
    /// A QR size out of range.
    INVALID_SIZE: 400 = "invalid_size";
    /// A template style that is not built in.
    INVALID_STYLE: 400 = "invalid_style";
    /// A template thumbnail that is not an http(s) URL.
    INVALID_THUMB: 400 = "invalid_thumb";
    /// A page source that is too long.
    INVALID_BODY: 400 = "invalid_body";
    /// A webhook URL that a chain's target could not be.
    INVALID_WEBHOOK_URL: 400 = "invalid_webhook_url";
    /// No events to subscribe to.
    INVALID_EVENTS: 400 = "invalid_events";
    /// A webhook description too long or with control characters.
    INVALID_DESCRIPTION: 400 = "invalid_description";
    /// An `Idempotency-Key` that is not 1 to 255 printable ASCII characters, or given twice.
    INVALID_IDEMPOTENCY_KEY: 400 = "invalid_idempotency_key";
    /// No `file` part in an upload.
    MISSING_FILE: 400 = "missing_file";
    /// A multipart body that does not parse.
    BAD_MULTIPART: 400 = "bad_multipart";

    // 422: the request matches its schema but breaks a rule the schema cannot state.
    /// A `valid_time` in the past.
    INVALID_VALID_TIME: 422 = "invalid_valid_time";
    /// A `valid_since` not before the chain's `valid_time`.
    INVALID_VALID_SINCE: 422 = "invalid_valid_since";
    /// A domain unknown or not the caller's.
    INVALID_DOMAIN: 422 = "invalid_domain";
    /// A domain switched off (status 99).
    DOMAIN_NOT_EFFECTIVE: 422 = "domain_not_effective";
    /// A group unknown, not the caller's, or of another chain type.
    INVALID_GROUP: 422 = "invalid_group";
    /// A chain type the operation does not make.
    INVALID_CHAIN_TYPE_RULE: 422 = "invalid_chain_type";
    /// Paging by page and by rows at once.
    INVALID_PAGE_RULE: 422 = "invalid_page";
    /// A messaging-app edit that changes nothing.
    EMPTY_UPDATE_RULE: 422 = "empty_update";
    /// A code on several of the caller's domains.
    AMBIGUOUS_CODE: 422 = "ambiguous_code";
    /// A code to delete that does not exist.
    UNKNOWN_CHAIN: 422 = "unknown_chain";
    /// Admin input naming no user.
    INVALID_USER: 422 = "invalid_user";
    /// An expiry in the past.
    INVALID_EXPIRY: 422 = "invalid_expiry";
    /// An owner given for a shared domain.
    INVALID_OWNER: 422 = "invalid_owner";
    /// Not exactly one of `chain` and `chain_id`.
    INVALID_CHAIN_REF: 422 = "invalid_chain_ref";
    /// `suspend_redirects` without a suspension, or a key suspending its own user.
    INVALID_SUSPENSION: 422 = "invalid_suspension";
    /// A `sub_type` without its destination.
    MISSING_DESTINATION: 422 = "missing_destination";
    /// A field of another kind of chain.
    FIELD_NOT_ALLOWED: 422 = "field_not_allowed";
    /// A direct jump a destination cannot make.
    INVALID_DIRECT_JUMP: 422 = "invalid_direct_jump";
    /// A field that cannot change.
    IMMUTABLE_FIELD: 422 = "immutable_field";
    /// A compatibility edit without `chain`.
    MISSING_CHAIN: 422 = "missing_chain";
    /// A channel that is not the chain's.
    UNKNOWN_CHANNEL: 422 = "unknown_channel";
    /// An assembly entry that is not the caller's.
    UNKNOWN_CUSTOMER: 422 = "unknown_customer";
    /// An assembly entry marked invalid.
    INVALID_CUSTOMER: 422 = "invalid_customer";
    /// A template not offered to the caller, or retired.
    INVALID_TEMPLATE: 422 = "invalid_template";
    /// One template more than the limit.
    TEMPLATE_LIMIT_REACHED: 422 = "template_limit_reached";
    /// A new channel without url, `is_delete` without id, a channel listed twice.
    INVALID_CHANNEL: 422 = "invalid_channel";
    /// A page source that does not compile or runs out of fuel; a preview that fails.
    INVALID_BODY_RULE: 422 = "invalid_body";
    /// A webhook URL whose host is not public.
    WEBHOOK_URL_NOT_PUBLIC: 422 = "webhook_url_not_public";
    /// The user's 21st webhook endpoint.
    TOO_MANY_WEBHOOKS: 422 = "too_many_webhooks";
    /// An `Idempotency-Key` used for another request in the last 24 hours.
    IDEMPOTENCY_KEY_REUSED: 422 = "idempotency_key_reused";
    /// An empty, truncated or damaged image.
    INVALID_IMAGE: 422 = "invalid_image";
    /// An image past the pixel or frame limits.
    IMAGE_TOO_LARGE: 422 = "image_too_large";

    // 409: a conflict with what is stored.
    /// A custom code taken on its domain.
    CODE_TAKEN: 409 = "code_taken";
    /// A custom code asked for by an earlier item of the same bulk create (items only).
    DUPLICATE_CODE: 409 = "duplicate_code";
    /// A group name the user has already.
    GROUP_EXISTS: 409 = "group_exists";
    /// A user name taken.
    USER_EXISTS: 409 = "user_exists";
    /// A host registered already.
    DOMAIN_EXISTS: 409 = "domain_exists";
    /// A built-in template cannot be changed or retired.
    BUILT_IN_TEMPLATE: 409 = "built_in_template";
    /// A test event for a disabled endpoint.
    WEBHOOK_DISABLED: 409 = "webhook_disabled";
    /// A request under the same `Idempotency-Key` is still being answered.
    IDEMPOTENCY_KEY_IN_USE: 409 = "idempotency_key_in_use";
    /// A recovery key asked for while the first user is suspended (`admin-key`).
    FIRST_USER_SUSPENDED: 409 = "user_suspended";

    // The other statuses, one variant of `Error` each.
    /// A key that is unknown, revoked, expired or malformed, or two different keys.
    INVALID_API_KEY: 401 = "invalid_api_key";
    /// No key at all.
    MISSING_API_KEY: 401 = "missing_api_key";
    /// A valid key of a suspended user.
    USER_SUSPENDED: 401 = "user_suspended";
    /// The key lacks the operation's scope.
    FORBIDDEN: 403 = "forbidden";
    /// No such route, or no such resource of the caller's.
    NOT_FOUND: 404 = "not_found";
    /// The path exists, not with this method.
    METHOD_NOT_ALLOWED: 405 = "method_not_allowed";
    /// The body did not arrive in time, or slower than the floor.
    REQUEST_TIMEOUT: 408 = "request_timeout";
    /// A body or file over its limit.
    PAYLOAD_TOO_LARGE: 413 = "payload_too_large";
    /// An upload past the user's storage quota.
    STORAGE_QUOTA_EXCEEDED: 413 = "storage_quota_exceeded";
    /// A body of a type the operation does not read.
    UNSUPPORTED_MEDIA_TYPE: 415 = "unsupported_media_type";
    /// An upload that is SVG or not an image.
    UNSUPPORTED_FILE_TYPE: 415 = "unsupported_file_type";
    /// The key's rate limit.
    RATE_LIMITED: 429 = "rate_limited";
    /// The user's daily creation quota.
    QUOTA_EXCEEDED: 429 = "quota_exceeded";
    /// The user holds its share of the instance's request work.
    KEY_BUSY: 429 = "key_busy";
    /// Something failed inside the server.
    INTERNAL_ERROR: 500 = "internal_error";
    /// The store cannot serve now.
    UNAVAILABLE: 503 = "unavailable";
    /// The instance holds as much request work as it may.
    OVERLOADED: 503 = "overloaded";
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::ALL;

    /// The errors table of `docs/interface.md`: each name with the statuses its rows give.
    fn documented() -> BTreeMap<String, BTreeSet<u16>> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/interface.md");
        let doc = std::fs::read_to_string(path).expect("docs/interface.md");
        let table = doc
            .split("\n## Errors\n")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .expect("an Errors section");
        let mut names: BTreeMap<String, BTreeSet<u16>> = BTreeMap::new();
        for row in table.lines().filter(|l| l.starts_with("| `")) {
            let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
            let statuses: BTreeSet<u16> = cells[1]
                .split('/')
                .filter_map(|s| s.trim().parse().ok())
                .collect();
            if statuses.is_empty() {
                continue; // the header
            }
            for name in cells[0].split(',').map(|n| n.trim().trim_matches('`')) {
                names.entry(name.to_owned()).or_default().extend(&statuses);
            }
        }
        names
    }

    #[test]
    fn every_name_is_documented_at_its_status_and_every_documented_one_exists() {
        let documented = documented();
        let mut declared: BTreeMap<String, BTreeSet<u16>> = BTreeMap::new();
        for (name, status) in ALL {
            assert!(
                declared
                    .entry((*name).to_owned())
                    .or_default()
                    .insert(*status),
                "{name} at {status} is declared twice"
            );
        }
        assert_eq!(
            declared, documented,
            "error names (left) and the table in docs/interface.md (right) disagree"
        );
    }

    #[test]
    fn names_are_lower_case_words() {
        for (name, _) in ALL {
            assert!(
                !name.is_empty()
                    && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                    && !name.starts_with('_')
                    && !name.ends_with('_'),
                "{name}"
            );
        }
    }
}
