//! Every operation of both surfaces, declared once: its name, method, path and the envelope
//! it answers in. The server's route table builds each row from one of these ([`op`]), and the
//! client addresses its requests by the same constants, so the two cannot drift apart; a test
//! of the route table holds that every operation here has its row, and one of the client that
//! every operation meant for programs has its method.

use super::envelope::Envelope;

/// One operation: its name (the OpenAPI operation id without its method), method, path
/// template and the envelope of its successes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operation {
    /// The operation's name, as logs, metrics and the OpenAPI document give it.
    pub name: &'static str,
    /// The HTTP method: `GET`, `POST`, `PATCH` or `DELETE`.
    pub method: &'static str,
    /// The path, `{name}` for its parameter.
    pub path: &'static str,
    /// The envelope its successes come in.
    pub envelope: Envelope,
    /// What it does, in a few words: the OpenAPI operation's `summary`.
    pub summary: &'static str,
}

impl Operation {
    /// [`Operation::method`] as a method value.
    pub fn http_method(&self) -> http::Method {
        match self.method {
            "POST" => http::Method::POST,
            "PATCH" => http::Method::PATCH,
            "DELETE" => http::Method::DELETE,
            _ => http::Method::GET,
        }
    }

    /// Whether `path` (a query string after it or not) is this operation's path with its
    /// parameter filled in.
    pub fn serves(&self, path: &str) -> bool {
        let path = path.split('?').next().unwrap_or_default();
        let given = path.split('/');
        let template = self.path.split('/');
        given.clone().count() == template.clone().count()
            && given.zip(template).all(|(segment, expected)| {
                segment == expected || (expected.starts_with('{') && !segment.is_empty())
            })
    }
}

/// Declares each operation as a constant of `op` and lists them all in [`OPERATIONS`]; each
/// constant is its name in capitals, dots as underscores (a test holds them to it).
macro_rules! operations {
    ($($constant:ident = $method:ident $path:literal $envelope:ident $name:literal $summary:literal;)*) => {
        /// The operations, one constant each.
        pub mod op {
            use super::{Envelope, Operation};
            $(
                #[doc = concat!("`", stringify!($method), " ", $path, "`")]
                pub const $constant: Operation = Operation {
                    name: $name,
                    method: stringify!($method),
                    path: $path,
                    envelope: Envelope::$envelope,
                    summary: $summary,
                };
            )*
        }

        /// Every operation, in the order of its path.
        pub const OPERATIONS: &[Operation] = &[$(op::$constant),*];

        #[cfg(test)]
        const CONSTANTS: &[&str] = &[$(stringify!($constant)),*];
    };
}

operations! {
    HOME = GET "/" Page "home" "The server's home page";
    ADMIN_DOMAINS_LIST = GET "/admin/domains" Primary "admin.domains.list" "List every domain";
    ADMIN_DOMAINS_CREATE = POST "/admin/domains" Primary "admin.domains.create" "Register a domain";
    ADMIN_DOMAINS_UPDATE = PATCH "/admin/domains/{id}" Primary "admin.domains.update" "Switch a domain on or off";
    ADMIN_KEYS_LIST = GET "/admin/keys" Primary "admin.keys.list" "List a user's API keys";
    ADMIN_KEYS_CREATE = POST "/admin/keys" Primary "admin.keys.create" "Issue an API key";
    ADMIN_KEYS_REVOKE = DELETE "/admin/keys/{id}" Primary "admin.keys.revoke" "Revoke an API key";
    ADMIN_ORPHAN_VISITS = GET "/admin/orphan-visits" Primary "admin.orphan_visits" "Count requests of the domains that reached no chain";
    ADMIN_TEMPLATES_LIST = GET "/admin/templates" Primary "admin.templates.list" "List jump-page templates, retired ones included";
    ADMIN_TEMPLATES_CREATE = POST "/admin/templates" Primary "admin.templates.create" "Add a jump-page template";
    ADMIN_TEMPLATES_RETIRE = DELETE "/admin/templates/{id}" Primary "admin.templates.retire" "Retire a jump-page template";
    ADMIN_TEMPLATES_UPDATE = PATCH "/admin/templates/{id}" Primary "admin.templates.update" "Edit a jump-page template";
    ADMIN_TEMPLATES_PREVIEW = GET "/admin/templates/{id}/preview" Primary "admin.templates.preview" "Preview a jump-page template";
    ADMIN_USERS_LIST = GET "/admin/users" Primary "admin.users.list" "List users";
    ADMIN_USERS_CREATE = POST "/admin/users" Primary "admin.users.create" "Create a user";
    ADMIN_USERS_GET = GET "/admin/users/{id}" Primary "admin.users.get" "Show a user and its usage";
    ADMIN_USERS_EDIT = PATCH "/admin/users/{id}" Primary "admin.users.edit" "Edit, suspend or resume a user";
    ADMIN_VISITOR_SECRET_ROTATE = POST "/admin/visitor-secret" Primary "admin.visitor_secret.rotate" "Start counting unique visitors under a new secret";
    ADMIN_WORKCHAT_ASSEMBLIES_LIST = GET "/admin/workchat/assemblies" Primary "admin.workchat.assemblies.list" "List a user's work-chat assembly entries";
    ADMIN_WORKCHAT_ASSEMBLIES_PUT = POST "/admin/workchat/assemblies" Primary "admin.workchat.assemblies.put" "Add or replace work-chat assembly entries";
    ADMIN_WORKCHAT_TRANSFERS_LOAD = POST "/admin/workchat/transfers" Primary "admin.workchat.transfers.load" "Load work-chat customer-transfer records";
    CARD_LIST = GET "/card" Primary "card.list" "List card chains";
    CARD_CREATE = POST "/card/createWxChain" Compat "card.create" "Create a card chain";
    CHAINS_LIST = GET "/chains" Primary "chains.list" "List your short chains";
    CHAINS_CREATE = POST "/chains" Primary "chains.create" "Create a short chain";
    CHAINS_CREATE_BULK = POST "/chains/bulk" Primary "chains.create_bulk" "Create up to 10,000 short chains";
    CHAINS_EXPORT = GET "/chains/export" Primary "chains.export" "Export your short chains as JSON lines or CSV";
    CHAINS_IMPORT = POST "/chains/import" Primary "chains.import" "Import up to 10,000 short chains with their own codes, times and visit totals";
    CHAINS_DELETE = DELETE "/chains/{id}" Primary "chains.delete" "Delete a chain";
    CHAINS_GET = GET "/chains/{id}" Primary "chains.get" "Show a chain";
    CHAINS_UPDATE = PATCH "/chains/{id}" Primary "chains.update" "Edit a chain";
    CHAINS_ARCHIVE = POST "/chains/{id}/archive" Primary "chains.archive" "Archive a chain: left out of listings, still redirecting";
    CHAINS_UNARCHIVE = DELETE "/chains/{id}/archive" Primary "chains.unarchive" "Bring an archived chain back to the listings";
    CHAINS_CONVERSIONS = GET "/chains/{id}/conversions" Primary "chains.conversions" "List a chain's conversions";
    CHAINS_QR = GET "/chains/{id}/qr" Primary "chains.qr" "A chain's QR code";
    CHAINS_STATS = GET "/chains/{id}/stats" Primary "chains.stats" "A chain's visits: totals and a daily trend";
    CHAINS_STATS_BROWSERS = GET "/chains/{id}/stats/browsers" Primary "chains.stats.browsers" "A chain's visits by browser";
    CHAINS_STATS_COUNTRIES = GET "/chains/{id}/stats/countries" Primary "chains.stats.countries" "A chain's visits by country";
    CHAINS_STATS_DEVICES = GET "/chains/{id}/stats/devices" Primary "chains.stats.devices" "A chain's visits by device";
    CHAINS_STATS_LANGUAGES = GET "/chains/{id}/stats/languages" Primary "chains.stats.languages" "A chain's visits by language";
    CHAINS_STATS_OS = GET "/chains/{id}/stats/os" Primary "chains.stats.os" "A chain's visits by operating system";
    CHAINS_STATS_REFERRERS = GET "/chains/{id}/stats/referrers" Primary "chains.stats.referrers" "A chain's visits by referrer";
    CHAINS_STATS_RULES = GET "/chains/{id}/stats/rules" Primary "chains.stats.rules" "A chain's visits by redirect rule";
    DOMAINS_LIST = GET "/domains" Primary "domains.list" "List the domains you may create chains on";
    FAVICON = GET "/favicon.ico" Page "favicon" "The favicon";
    FILES_GET = GET "/files/{object_key}" Page "files.get" "A hosted image";
    GROUPS_LIST = GET "/groups" Primary "groups.list" "List your groups";
    GROUPS_CREATE = POST "/groups" Primary "groups.create" "Create a group";
    GROUPS_GET = GET "/groups/{id}" Primary "groups.get" "Show a group";
    HEALTHZ = GET "/healthz" Primary "healthz" "Liveness: the process answers";
    METRICS = GET "/metrics" Primary "metrics" "Prometheus metrics";
    OPENAPI = GET "/openapi.json" Primary "openapi" "This document";
    COMPAT_CONVERSIONS_REPORT = POST "/openapi/v1/adcallback/{ad_platform_name}/conversions" Status "compat.conversions.report" "Report an ad conversion";
    COMPAT_CHAIN_CREATE = POST "/openapi/v1/chain/create" Compat "compat.chain.create" "Create a short chain (compatibility surface)";
    COMPAT_CHAIN_DELETE = POST "/openapi/v1/chain/delete" Compat "compat.chain.delete" "Delete chains by code (compatibility surface)";
    COMPAT_CHAIN_EDIT = POST "/openapi/v1/chain/edit" Compat "compat.chain.edit" "Edit a chain (compatibility surface)";
    COMPAT_CHAIN_INFO = POST "/openapi/v1/chain/info" Compat "compat.chain.info" "Show a chain (compatibility surface)";
    COMPAT_CHAIN_LIST = POST "/openapi/v1/chain/list" Compat "compat.chain.list" "List chains (compatibility surface)";
    COMPAT_DOMAIN_LIST = POST "/openapi/v1/domain/list" Compat "compat.domain.list" "List domains (compatibility surface)";
    COMPAT_GROUP_CREATE = POST "/openapi/v1/group/create" Compat "compat.group.create" "Create a group (compatibility surface)";
    COMPAT_GROUP_LIST = POST "/openapi/v1/group/list" Compat "compat.group.list" "List groups (compatibility surface)";
    COMPAT_TEMPLATE_LIST = POST "/openapi/v1/template/list" Compat "compat.template.list" "List jump-page templates (compatibility surface)";
    COMPAT_UPLOAD_IMAGE = POST "/openapi/v1/upload/image" Compat "compat.upload.image" "Upload images (compatibility surface)";
    COMPAT_WORKCHAT_ASSEMBLY_LIST = POST "/openapi/v1/workchat/assembly/list" Compat "compat.workchat.assembly.list" "List your work-chat assembly entries";
    COMPAT_WORKCHAT_CHAIN_CREATE = POST "/openapi/v1/workchat/chain/create" Compat "compat.workchat.chain.create" "Create a work-chat chain";
    COMPAT_WORKCHAT_CHAIN_EDIT = POST "/openapi/v1/workchat/chain/edit" Compat "compat.workchat.chain.edit" "Edit a work-chat chain";
    COMPAT_WORKCHAT_CHAIN_INFO = POST "/openapi/v1/workchat/chain/info" Compat "compat.workchat.chain.info" "Show a work-chat chain";
    COMPAT_WORKCHAT_TRANSFER_RESULT = POST "/openapi/v1/workchat/transfer/result" Status "compat.workchat.transfer.result" "Query work-chat customer-transfer results";
    COMPAT_WXCHAIN_CREATE = POST "/openapi/v1/wxchain/create" Compat "compat.wxchain.create" "Create a messaging-app chain";
    COMPAT_WXCHAIN_EDIT = POST "/openapi/v1/wxchain/edit" Compat "compat.wxchain.edit" "Edit a messaging-app chain";
    COMPAT_WXCHAIN_INFO = POST "/openapi/v1/wxchain/info" Compat "compat.wxchain.info" "Show a messaging-app chain";
    COMPAT_WXCHAIN_LIST = POST "/openapi/v1/wxchain/list" Compat "compat.wxchain.list" "List messaging-app chains (compatibility surface)";
    READYZ = GET "/readyz" Primary "readyz" "Readiness: the store answers";
    STATS = GET "/stats" Primary "stats" "Your visits across all your chains";
    TEMPLATES_LIST = GET "/templates" Primary "templates.list" "List the jump-page templates you may use";
    UPLOADS_LIST = GET "/uploads" Primary "uploads.list" "List your uploads";
    UPLOADS_CREATE = POST "/uploads" Primary "uploads.create" "Upload an image";
    UPLOADS_DELETE = DELETE "/uploads/{file_id}" Primary "uploads.delete" "Delete an upload";
    WEBHOOKS_LIST = GET "/webhooks" Primary "webhooks.list" "List your webhook endpoints";
    WEBHOOKS_CREATE = POST "/webhooks" Primary "webhooks.create" "Add a webhook endpoint";
    WEBHOOKS_DELETE = DELETE "/webhooks/{id}" Primary "webhooks.delete" "Delete a webhook endpoint";
    WEBHOOKS_GET = GET "/webhooks/{id}" Primary "webhooks.get" "Show a webhook endpoint";
    WEBHOOKS_UPDATE = PATCH "/webhooks/{id}" Primary "webhooks.update" "Edit a webhook endpoint";
    WEBHOOKS_DELIVERIES = GET "/webhooks/{id}/deliveries" Primary "webhooks.deliveries" "List a webhook endpoint's deliveries";
    WEBHOOKS_ROTATE_SECRET = POST "/webhooks/{id}/rotate-secret" Primary "webhooks.rotate_secret" "Rotate a webhook endpoint's signing secret";
    WEBHOOKS_TEST = POST "/webhooks/{id}/test" Primary "webhooks.test" "Send a test event to a webhook endpoint";
    WX_CHAINS_LIST = GET "/wx-chains" Primary "wx_chains.list" "List messaging-app chains";
    WX_CHAINS_CREATE = POST "/wx-chains" Primary "wx_chains.create" "Create a messaging-app chain";
    WX_CHAINS_DELETE = DELETE "/wx-chains/{id}" Primary "wx_chains.delete" "Delete a messaging-app chain";
    WX_CHAINS_GET = GET "/wx-chains/{id}" Primary "wx_chains.get" "Show a messaging-app chain";
    WX_CHAINS_UPDATE = PATCH "/wx-chains/{id}" Primary "wx_chains.update" "Edit a messaging-app chain";
    WX_CHAINS_QR = GET "/wx-chains/{id}/qr" Primary "wx_chains.qr" "A messaging-app chain's QR code";
    REDIRECT = GET "/{code}" Page "redirect" "Follow a short link";
}

/// The name of the constant of `op` declaring the operation called `name`.
pub fn constant_of(name: &str) -> String {
    name.to_ascii_uppercase().replace('.', "_")
}

#[cfg(test)]
mod tests {
    use super::{CONSTANTS, OPERATIONS, constant_of};

    #[test]
    fn each_constant_is_its_name_and_each_name_and_address_is_declared_once() {
        let mut names = std::collections::BTreeSet::new();
        let mut addresses = std::collections::BTreeSet::new();
        for (op, constant) in OPERATIONS.iter().zip(CONSTANTS) {
            assert_eq!(&constant_of(op.name), constant);
            assert!(names.insert(op.name), "{} twice", op.name);
            assert!(
                addresses.insert((op.method, op.path)),
                "{} {} twice",
                op.method,
                op.path
            );
            assert_eq!(op.http_method().as_str(), op.method);
        }
    }

    #[test]
    fn an_operation_serves_its_path_with_the_parameter_filled_in() {
        use super::op::{CHAINS_GET, CHAINS_LIST};
        assert!(CHAINS_GET.serves("/chains/12?x=1"));
        assert!(!CHAINS_GET.serves("/chains/"));
        assert!(!CHAINS_GET.serves("/chains/12/qr"));
        assert!(CHAINS_LIST.serves("/chains"));
    }
}
