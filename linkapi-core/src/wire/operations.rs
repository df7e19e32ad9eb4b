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
    ($($constant:ident = $method:ident $path:literal $envelope:ident $name:literal;)*) => {
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
    HOME = GET "/" Page "home";
    ADMIN_DOMAINS_LIST = GET "/admin/domains" Primary "admin.domains.list";
    ADMIN_DOMAINS_CREATE = POST "/admin/domains" Primary "admin.domains.create";
    ADMIN_DOMAINS_UPDATE = PATCH "/admin/domains/{id}" Primary "admin.domains.update";
    ADMIN_KEYS_LIST = GET "/admin/keys" Primary "admin.keys.list";
    ADMIN_KEYS_CREATE = POST "/admin/keys" Primary "admin.keys.create";
    ADMIN_KEYS_REVOKE = DELETE "/admin/keys/{id}" Primary "admin.keys.revoke";
    ADMIN_TEMPLATES_LIST = GET "/admin/templates" Primary "admin.templates.list";
    ADMIN_TEMPLATES_CREATE = POST "/admin/templates" Primary "admin.templates.create";
    ADMIN_TEMPLATES_RETIRE = DELETE "/admin/templates/{id}" Primary "admin.templates.retire";
    ADMIN_TEMPLATES_UPDATE = PATCH "/admin/templates/{id}" Primary "admin.templates.update";
    ADMIN_TEMPLATES_PREVIEW = GET "/admin/templates/{id}/preview" Primary "admin.templates.preview";
    ADMIN_USERS_LIST = GET "/admin/users" Primary "admin.users.list";
    ADMIN_USERS_CREATE = POST "/admin/users" Primary "admin.users.create";
    ADMIN_USERS_GET = GET "/admin/users/{id}" Primary "admin.users.get";
    ADMIN_USERS_EDIT = PATCH "/admin/users/{id}" Primary "admin.users.edit";
    ADMIN_VISITOR_SECRET_ROTATE = POST "/admin/visitor-secret" Primary "admin.visitor_secret.rotate";
    ADMIN_WORKCHAT_ASSEMBLIES_LIST = GET "/admin/workchat/assemblies" Primary "admin.workchat.assemblies.list";
    ADMIN_WORKCHAT_ASSEMBLIES_PUT = POST "/admin/workchat/assemblies" Primary "admin.workchat.assemblies.put";
    ADMIN_WORKCHAT_TRANSFERS_LOAD = POST "/admin/workchat/transfers" Primary "admin.workchat.transfers.load";
    CARD_LIST = GET "/card" Primary "card.list";
    CARD_CREATE = POST "/card/createWxChain" Compat "card.create";
    CHAINS_LIST = GET "/chains" Primary "chains.list";
    CHAINS_CREATE = POST "/chains" Primary "chains.create";
    CHAINS_CREATE_BULK = POST "/chains/bulk" Primary "chains.create_bulk";
    CHAINS_DELETE = DELETE "/chains/{id}" Primary "chains.delete";
    CHAINS_GET = GET "/chains/{id}" Primary "chains.get";
    CHAINS_UPDATE = PATCH "/chains/{id}" Primary "chains.update";
    CHAINS_CONVERSIONS = GET "/chains/{id}/conversions" Primary "chains.conversions";
    CHAINS_QR = GET "/chains/{id}/qr" Primary "chains.qr";
    CHAINS_STATS = GET "/chains/{id}/stats" Primary "chains.stats";
    CHAINS_STATS_BROWSERS = GET "/chains/{id}/stats/browsers" Primary "chains.stats.browsers";
    CHAINS_STATS_COUNTRIES = GET "/chains/{id}/stats/countries" Primary "chains.stats.countries";
    CHAINS_STATS_DEVICES = GET "/chains/{id}/stats/devices" Primary "chains.stats.devices";
    CHAINS_STATS_LANGUAGES = GET "/chains/{id}/stats/languages" Primary "chains.stats.languages";
    CHAINS_STATS_OS = GET "/chains/{id}/stats/os" Primary "chains.stats.os";
    CHAINS_STATS_REFERRERS = GET "/chains/{id}/stats/referrers" Primary "chains.stats.referrers";
    CHAINS_STATS_RULES = GET "/chains/{id}/stats/rules" Primary "chains.stats.rules";
    DOMAINS_LIST = GET "/domains" Primary "domains.list";
    FAVICON = GET "/favicon.ico" Page "favicon";
    FILES_GET = GET "/files/{object_key}" Page "files.get";
    GROUPS_LIST = GET "/groups" Primary "groups.list";
    GROUPS_CREATE = POST "/groups" Primary "groups.create";
    GROUPS_GET = GET "/groups/{id}" Primary "groups.get";
    HEALTHZ = GET "/healthz" Primary "healthz";
    METRICS = GET "/metrics" Primary "metrics";
    OPENAPI = GET "/openapi.json" Primary "openapi";
    COMPAT_CONVERSIONS_REPORT = POST "/openapi/v1/adcallback/{ad_platform_name}/conversions" Status "compat.conversions.report";
    COMPAT_CHAIN_CREATE = POST "/openapi/v1/chain/create" Compat "compat.chain.create";
    COMPAT_CHAIN_DELETE = POST "/openapi/v1/chain/delete" Compat "compat.chain.delete";
    COMPAT_CHAIN_EDIT = POST "/openapi/v1/chain/edit" Compat "compat.chain.edit";
    COMPAT_CHAIN_INFO = POST "/openapi/v1/chain/info" Compat "compat.chain.info";
    COMPAT_CHAIN_LIST = POST "/openapi/v1/chain/list" Compat "compat.chain.list";
    COMPAT_DOMAIN_LIST = POST "/openapi/v1/domain/list" Compat "compat.domain.list";
    COMPAT_GROUP_CREATE = POST "/openapi/v1/group/create" Compat "compat.group.create";
    COMPAT_GROUP_LIST = POST "/openapi/v1/group/list" Compat "compat.group.list";
    COMPAT_TEMPLATE_LIST = POST "/openapi/v1/template/list" Compat "compat.template.list";
    COMPAT_UPLOAD_IMAGE = POST "/openapi/v1/upload/image" Compat "compat.upload.image";
    COMPAT_WORKCHAT_ASSEMBLY_LIST = POST "/openapi/v1/workchat/assembly/list" Compat "compat.workchat.assembly.list";
    COMPAT_WORKCHAT_CHAIN_CREATE = POST "/openapi/v1/workchat/chain/create" Compat "compat.workchat.chain.create";
    COMPAT_WORKCHAT_CHAIN_EDIT = POST "/openapi/v1/workchat/chain/edit" Compat "compat.workchat.chain.edit";
    COMPAT_WORKCHAT_CHAIN_INFO = POST "/openapi/v1/workchat/chain/info" Compat "compat.workchat.chain.info";
    COMPAT_WORKCHAT_TRANSFER_RESULT = POST "/openapi/v1/workchat/transfer/result" Status "compat.workchat.transfer.result";
    COMPAT_WXCHAIN_CREATE = POST "/openapi/v1/wxchain/create" Compat "compat.wxchain.create";
    COMPAT_WXCHAIN_EDIT = POST "/openapi/v1/wxchain/edit" Compat "compat.wxchain.edit";
    COMPAT_WXCHAIN_INFO = POST "/openapi/v1/wxchain/info" Compat "compat.wxchain.info";
    COMPAT_WXCHAIN_LIST = POST "/openapi/v1/wxchain/list" Compat "compat.wxchain.list";
    READYZ = GET "/readyz" Primary "readyz";
    STATS = GET "/stats" Primary "stats";
    TEMPLATES_LIST = GET "/templates" Primary "templates.list";
    UPLOADS_LIST = GET "/uploads" Primary "uploads.list";
    UPLOADS_CREATE = POST "/uploads" Primary "uploads.create";
    UPLOADS_DELETE = DELETE "/uploads/{file_id}" Primary "uploads.delete";
    WEBHOOKS_LIST = GET "/webhooks" Primary "webhooks.list";
    WEBHOOKS_CREATE = POST "/webhooks" Primary "webhooks.create";
    WEBHOOKS_DELETE = DELETE "/webhooks/{id}" Primary "webhooks.delete";
    WEBHOOKS_GET = GET "/webhooks/{id}" Primary "webhooks.get";
    WEBHOOKS_UPDATE = PATCH "/webhooks/{id}" Primary "webhooks.update";
    WEBHOOKS_DELIVERIES = GET "/webhooks/{id}/deliveries" Primary "webhooks.deliveries";
    WEBHOOKS_ROTATE_SECRET = POST "/webhooks/{id}/rotate-secret" Primary "webhooks.rotate_secret";
    WEBHOOKS_TEST = POST "/webhooks/{id}/test" Primary "webhooks.test";
    WX_CHAINS_LIST = GET "/wx-chains" Primary "wx_chains.list";
    WX_CHAINS_CREATE = POST "/wx-chains" Primary "wx_chains.create";
    WX_CHAINS_DELETE = DELETE "/wx-chains/{id}" Primary "wx_chains.delete";
    WX_CHAINS_GET = GET "/wx-chains/{id}" Primary "wx_chains.get";
    WX_CHAINS_UPDATE = PATCH "/wx-chains/{id}" Primary "wx_chains.update";
    WX_CHAINS_QR = GET "/wx-chains/{id}/qr" Primary "wx_chains.qr";
    REDIRECT = GET "/{code}" Page "redirect";
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
