//! The original vendor's two public clients, played call for call against a real server
//! (contract section 5): what each sends, as the vendor's reference describes it, and exactly
//! what each reads of the answers and would fail on.
//!
//! - The PHP client keeps a local table of each group's chains. It sends the key as
//!   `?apikey=` on every call (POST included), `Host: openapi.aifabu.com` and browser-like
//!   headers, and `null` for every optional field it does not set; it reads groups from
//!   `getChainGroup`'s array and synchronises a group by `getChainList`'s `start`/`count`,
//!   deleting local rows missing from the answer.
//! - The Python client sends the key in the query on GET and only inside the JSON body on
//!   POST; it looks for a group named after the day, creates it if missing, then creates
//!   chains one by one, reading `render_url` and `created_today`.

use std::collections::{BTreeMap, BTreeSet};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::instances::{backends, instances};
use crate::support::{Options, TestServer};

/// How a client sends its key.
#[derive(Clone, Copy, Debug)]
enum KeyIn {
    /// `?apikey=` on every call (the PHP client).
    Query,
    /// `?apikey=` on GET, `apikey` in the JSON body on POST (the Python client).
    BodyOnPost,
}

/// One of the vendor's clients, pointed at a server: it builds `{base}/v1/...`.
struct VendorClient<'a> {
    server: &'a TestServer,
    key: String,
    key_in: KeyIn,
}

impl VendorClient<'_> {
    /// Calls `path` (after `/v1/`) and returns the `result` of a success, as the clients
    /// decide it: HTTP 200 and `code` the integer 1 (the PHP client compares strictly).
    async fn call(
        &self,
        method: Method,
        path: &str,
        params: &[(&str, String)],
        body: Value,
    ) -> Value {
        let (status, reply) = self.send(method, path, params, body).await;
        assert_eq!(status, StatusCode::OK, "{path}: {reply}");
        assert_eq!(reply["code"], json!(1), "{path}: {reply}");
        assert!(
            reply["code"].is_i64(),
            "{path}: code must be the integer 1: {reply}"
        );
        reply["result"].clone()
    }

    async fn send(
        &self,
        method: Method,
        path: &str,
        params: &[(&str, String)],
        mut body: Value,
    ) -> (StatusCode, Value) {
        let mut query: Vec<(&str, String)> = params.to_vec();
        let key_in_query = method == Method::GET || matches!(self.key_in, KeyIn::Query);
        if key_in_query {
            query.push(("apikey", self.key.clone()));
        } else {
            body["apikey"] = json!(self.key);
        }
        let query = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(&query)
            .finish();
        let mut request = self.server.client.request(
            method.clone(),
            self.server.url(&format!("/v1/{path}?{query}")),
        );
        if matches!(self.key_in, KeyIn::Query) {
            request = request
                .header("host", "openapi.aifabu.com")
                .header("accept", "application/json, text/plain, */*")
                .header("accept-language", "zh-CN,zh;q=0.9")
                .header("origin", "https://www.aifabu.com")
                .header("referer", "https://www.aifabu.com/");
        }
        if method == Method::POST {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request");
        let status = response.status();
        let text = response.text().await.expect("body");
        let reply: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{path}: {text}"));
        (status, reply)
    }
}

/// An integer field a client requires, non-null.
fn int(item: &Value, field: &str) -> i64 {
    item[field]
        .as_i64()
        .unwrap_or_else(|| panic!("{field} must be an integer: {item}"))
}

/// A string field a client requires, non-null.
fn text<'v>(item: &'v Value, field: &str) -> &'v str {
    item[field]
        .as_str()
        .unwrap_or_else(|| panic!("{field} must be a string: {item}"))
}

/// The fields the PHP client requires of every list item, non-null, and the code it derives
/// from `render_url`'s path, which must be the item's `chain`.
fn read_list_item(item: &Value, host: &str) -> String {
    for field in [
        "chain",
        "chain_title",
        "target_url",
        "render_url",
        "create_time",
        "status",
        "domain_url",
    ] {
        text(item, field);
    }
    for field in [
        "pv_history",
        "pv_today",
        "domain",
        "domain_status",
        "type",
        "sub_type",
    ] {
        int(item, field);
    }
    let created = text(item, "create_time");
    assert_eq!(created.len(), 19, "YYYY-MM-DD HH:MM:SS: {created}");
    assert!(matches!(int(item, "domain_status"), 1 | 99));
    let chain = text(item, "chain");
    assert_eq!(text(item, "render_url"), format!("http://{host}/{chain}"));
    assert_eq!(text(item, "domain_url"), host);
    chain.to_owned()
}

/// The PHP client's groups: `getChainGroup`'s array, every entry with its three fields.
async fn php_groups(client: &VendorClient<'_>) -> BTreeMap<String, (i64, i64)> {
    let result = client
        .call(
            Method::GET,
            "chainGroup/getChainGroup",
            &[("chain_type", "1".into())],
            json!({}),
        )
        .await;
    let groups = result
        .as_array()
        .unwrap_or_else(|| panic!("an array: {result}"));
    groups
        .iter()
        .map(|g| {
            (
                text(g, "group_name").to_owned(),
                (int(g, "group_id"), int(g, "chain_num")),
            )
        })
        .collect()
}

/// The PHP client's synchronisation of one group, by pages of `count` from `start`: every
/// page through `clients` in turn (instances behind a load balancer). Returns the codes in
/// the order listed; asserts the pages are exact (`list_num`, `total`) and disjoint.
async fn php_sync(
    clients: &[VendorClient<'_>],
    group: i64,
    count: usize,
    host: &str,
) -> Vec<String> {
    let mut seen = Vec::new();
    let mut start = 0;
    let mut total = None;
    for turn in 0.. {
        let client = &clients[turn % clients.len()];
        let result = client
            .call(
                Method::GET,
                "chain/getChainList",
                &[
                    ("group_id", group.to_string()),
                    ("start", start.to_string()),
                    ("count", count.to_string()),
                ],
                json!({}),
            )
            .await;
        let list = result["list"]
            .as_array()
            .unwrap_or_else(|| panic!("list: {result}"));
        assert_eq!(int(&result, "list_num"), list.len() as i64, "{result}");
        let this_total = int(&result, "total");
        assert_eq!(*total.get_or_insert(this_total), this_total, "total moved");
        for item in list {
            let code = read_list_item(item, host);
            assert!(!seen.contains(&code), "{code} listed twice");
            seen.push(code);
        }
        if list.len() < count {
            break;
        }
        start += count;
    }
    assert_eq!(Some(seen.len() as i64), total);
    seen
}

#[tokio::test]
async fn the_php_clients_session_keeps_every_row_of_a_group_of_137() {
    for backend in backends() {
        let servers = instances(backend.clone(), Options::default).await;
        let (_, key) = servers[0].full_user("php").await;
        let clients: Vec<VendorClient> = servers
            .iter()
            .map(|server| VendorClient {
                server,
                key: key.clone(),
                key_in: KeyIn::Query,
            })
            .collect();
        let php = &clients[0];
        let host = servers[0].host.clone();

        // A group, created as the client creates one, then found in the array.
        let created = php
            .call(
                Method::POST,
                "chainGroup/createChainGroup",
                &[],
                json!({"name": "landing pages", "chain_type": 1}),
            )
            .await;
        let group_id: i64 = match &created["group_id"] {
            Value::String(id) => id.parse().expect("numeric id"),
            other => other.as_i64().expect("group_id"),
        };
        let groups = php_groups(php).await;
        assert_eq!(groups["landing pages"], (group_id, 0));

        // 137 chains, with explicit nulls for what the client leaves unset, the group id as a
        // string, then as a number, through the instances in turn.
        let mut local: BTreeMap<String, String> = BTreeMap::new();
        for i in 0..137 {
            let client = &clients[i % clients.len()];
            let group = if i % 2 == 0 {
                json!(group_id.to_string())
            } else {
                json!(group_id)
            };
            let title = if i % 3 == 0 {
                Value::Null
            } else {
                json!(format!("page {i}"))
            };
            let result = client
                .call(
                    Method::POST,
                    "chain/createChain",
                    &[],
                    json!({
                        "target_url": format!("https://shop.example/p/{i}"),
                        "group_id": group,
                        "domain": null,
                        "chain_title": title,
                        "valid_time": null,
                    }),
                )
                .await;
            let render_url = text(&result, "render_url");
            let code = render_url.rsplit('/').next().expect("a code").to_owned();
            assert_eq!(render_url, format!("http://{host}/{code}"));
            assert_eq!(int(&result, "group_id"), group_id);
            assert_eq!(int(&result, "created_today"), i as i64 + 1);
            text(&result, "chain_title");
            assert!(local.insert(code, render_url.to_owned()).is_none());
        }
        // A chain outside the group is never in its pages.
        php.call(
            Method::POST,
            "chain/createChain",
            &[],
            json!({"target_url": "https://other.example/", "group_id": null, "domain": null,
                   "chain_title": null, "valid_time": null}),
        )
        .await;

        // The sync, by pages of 100 and of 30: no row lost, none seen twice.
        for count in [100, 30] {
            let listed = php_sync(&clients, group_id, count, &host).await;
            let listed: BTreeSet<&String> = listed.iter().collect();
            // What the client does with the answers: delete local rows missing from them.
            let missing: Vec<&String> = local.keys().filter(|c| !listed.contains(c)).collect();
            assert!(
                missing.is_empty(),
                "{backend:?}: the sync would delete {missing:?}"
            );
            assert_eq!(listed.len(), 137, "{backend:?}");
        }
        // The first page alone is what the client asks for first: exactly 100 rows, the newest.
        let first = php
            .call(
                Method::GET,
                "chain/getChainList",
                &[
                    ("group_id", group_id.to_string()),
                    ("start", "0".into()),
                    ("count", "100".into()),
                ],
                json!({}),
            )
            .await;
        assert_eq!(int(&first, "list_num"), 100);
        assert_eq!(int(&first, "total"), 137);
        // Past the end, an empty list (which the client reads as "delete every row": it is
        // only ever answered where there are no rows).
        let past = php
            .call(
                Method::GET,
                "chain/getChainList",
                &[
                    ("group_id", group_id.to_string()),
                    ("start", "137".into()),
                    ("count", "100".into()),
                ],
                json!({}),
            )
            .await;
        assert_eq!(past["list"], json!([]));
        assert_eq!(int(&past, "total"), 137);
        // count is at most 1000.
        let (status, refused) = php
            .send(
                Method::GET,
                "chain/getChainList",
                &[("group_id", group_id.to_string()), ("count", "1001".into())],
                json!({}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
        assert_eq!(refused["code"], 0);
        assert!(
            refused["msg"].as_str().is_some_and(|m| m.contains("count")),
            "{refused}"
        );

        // getChainGroup counts the group's chains.
        assert_eq!(php_groups(php).await["landing pages"], (group_id, 137));

        // editChain (and its lower-case spelling): the client stores both URLs it gets back.
        let (code, render_url) = local
            .iter()
            .next()
            .map(|(c, u)| (c.clone(), u.clone()))
            .unwrap();
        for (path, target) in [
            ("chain/editChain", "https://shop.example/new"),
            ("chain/editchain", "https://shop.example/newer"),
        ] {
            let edited = php
                .call(
                    Method::POST,
                    path,
                    &[],
                    json!({"chain": code, "target_url": target, "chain_title": null}),
                )
                .await;
            assert_eq!(text(&edited, "target_url"), target);
            assert_eq!(text(&edited, "render_url"), render_url);
        }
        let visit = servers[servers.len() - 1].visit(&code).await;
        assert_eq!(visit.status, StatusCode::FOUND);
        assert_eq!(visit.headers["location"], "https://shop.example/newer");

        // delChain: `code == 1` is all the client reads; the row leaves the next sync.
        php.call(
            Method::POST,
            "chain/delChain",
            &[],
            json!({"chains": [code]}),
        )
        .await;
        let listed = php_sync(&clients, group_id, 100, &host).await;
        assert_eq!(listed.len(), 136);
        assert!(!listed.contains(&code));
        assert_eq!(php_groups(php).await["landing pages"], (group_id, 136));
    }
}

#[tokio::test]
async fn the_python_clients_session_finds_or_creates_the_days_group_and_creates_one_by_one() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("python").await;
    let python = VendorClient {
        server: &server,
        key,
        key_in: KeyIn::BodyOnPost,
    };
    let today = "2027-01-15";
    let mut created_today = 0;
    for run in 0..2 {
        // Find the day's group in the array, or create it.
        let groups = python
            .call(Method::GET, "chainGroup/getChainGroup", &[], json!({}))
            .await;
        let found = groups
            .as_array()
            .expect("an array")
            .iter()
            .find(|g| g["group_name"] == today)
            .map(|g| int(g, "group_id"));
        assert_eq!(
            found.is_some(),
            run > 0,
            "the group exists after the first run"
        );
        let group_id = match found {
            Some(id) => id,
            None => {
                let created = python
                    .call(
                        Method::POST,
                        "chainGroup/createChainGroup",
                        &[],
                        json!({"name": today}),
                    )
                    .await;
                created["group_id"]
                    .as_str()
                    .and_then(|id| id.parse().ok())
                    .or_else(|| created["group_id"].as_i64())
                    .expect("group_id")
            }
        };
        for i in 0..3 {
            let result = python
                .call(
                    Method::POST,
                    "chain/createChain",
                    &[],
                    json!({
                        "target_url": format!("https://blog.example/{run}/{i}"),
                        "group_id": group_id,
                        "chain_title": format!("post {run}.{i}"),
                    }),
                )
                .await;
            created_today += 1;
            assert_eq!(int(&result, "created_today"), created_today);
            let render_url = text(&result, "render_url");
            let code = render_url.rsplit('/').next().unwrap();
            assert_eq!(server.visit(code).await.status, StatusCode::FOUND);
        }
    }
    let groups = python
        .call(Method::GET, "chainGroup/getChainGroup", &[], json!({}))
        .await;
    assert_eq!(groups.as_array().map(Vec::len), Some(1), "{groups}");
    assert_eq!(groups[0]["chain_num"], 6);
    // The key in the body is no field of the operation: it is not stored as one.
    let listed = python
        .call(
            Method::GET,
            "chain/getChainList",
            &[("count", "10".into())],
            json!({}),
        )
        .await;
    assert!(!listed.to_string().contains(&python.key));
}

#[tokio::test]
async fn a_key_in_the_body_is_checked_as_any_other() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("keys").await;
    let (_, other) = server.full_user("other").await;
    let post = |body: Value, bearer: Option<&str>| {
        let mut request = server
            .client
            .post(server.url("/v1/chain/createChain"))
            .json(&body);
        if let Some(bearer) = bearer {
            request = request.bearer_auth(bearer);
        }
        async move {
            let response = request.send().await.expect("request");
            let status = response.status();
            (status, response.json::<Value>().await.expect("json"))
        }
    };
    let target = "https://e.example/";
    for (body, bearer) in [
        // A wrong key, an empty one, one that is no string.
        (json!({"apikey": "lk_wrong", "target_url": target}), None),
        (json!({"apikey": "", "target_url": target}), None),
        (json!({"apikey": 12, "target_url": target}), None),
        // None at all.
        (json!({"target_url": target}), None),
        // Two different keys, in the body and the header.
        (
            json!({"apikey": other, "target_url": target}),
            Some(key.as_str()),
        ),
    ] {
        let (status, reply) = post(body.clone(), bearer).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}: {reply}");
        assert_eq!(reply["code"], 0, "{reply}");
        assert!(reply["msg"].is_string());
    }
    // The same key twice is one key; and the key in the body works on the action paths too.
    let (status, reply) = post(json!({"apikey": key, "target_url": target}), Some(&key)).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let reply = server
        .client
        .post(server.url("/openapi/v1/group/create"))
        .json(&json!({"apikey": key, "name": "by body"}))
        .send()
        .await
        .expect("request");
    assert_eq!(reply.status(), StatusCode::OK);
    // Nothing was created by the refused calls.
    let listed = server.get("/openapi/v1/chain/list", &key).await;
    assert_eq!(listed.compat_result()["total"], 1);
}

#[tokio::test]
async fn a_domain_is_named_by_its_host_and_chains_are_listed_by_creation_time() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("domains").await;
    let php = VendorClient {
        server: &server,
        key: key.clone(),
        key_in: KeyIn::Query,
    };
    let host = server.host.clone();
    let mut codes = Vec::new();
    for (i, domain) in [
        json!(host),
        json!(format!("http://{host}/")),
        json!([host]),
        json!(null),
    ]
    .into_iter()
    .enumerate()
    {
        let created = php
            .call(
                Method::POST,
                "chain/createChain",
                &[],
                json!({"target_url": format!("https://e.example/{i}"), "domain": domain}),
            )
            .await;
        let render_url = text(&created, "render_url").to_owned();
        assert!(
            render_url.starts_with(&format!("http://{host}/")),
            "{render_url}"
        );
        codes.push(render_url.rsplit('/').next().unwrap().to_owned());
        server.clock.advance(3600);
    }
    // A host the caller may not use is refused, in the compatibility envelope, and creates
    // nothing.
    let (status, refused) = php
        .send(
            Method::POST,
            "chain/createChain",
            &[],
            json!({"target_url": "https://e.example/x", "domain": "elsewhere.example"}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(refused["code"], 0);
    // begin_date and end_date (Unix seconds, creation time, both ends included).
    let start = crate::support::START;
    let between = |begin: i64, end: i64| {
        let php = &php;
        async move {
            let result = php
                .call(
                    Method::GET,
                    "chain/getChainList",
                    &[
                        ("begin_date", begin.to_string()),
                        ("end_date", end.to_string()),
                    ],
                    json!({}),
                )
                .await;
            result["list"]
                .as_array()
                .unwrap()
                .iter()
                .map(|item| text(item, "chain").to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        between(start + 3600, start + 7200).await,
        [codes[2].clone(), codes[1].clone()]
    );
    assert_eq!(between(start, start).await, [codes[0].clone()]);
    assert!(between(start + 4 * 3600, start + 9 * 3600).await.is_empty());
    // The vendor's operations live under /openapi/v1 too, as the same operations.
    let same = server
        .get("/openapi/v1/chain/getChainList?start=1&count=2", &key)
        .await;
    let result = same.compat_result();
    assert_eq!(result["list_num"], 2);
    assert_eq!(result["total"], 4);
    assert_eq!(result["list"][0]["chain"], codes[2].as_str());
    // Paging both ways at once is refused (a rule between fields: 422), on both listings.
    for path in ["/openapi/v1/chain/list", "/openapi/v1/wxchain/list"] {
        server
            .get(&format!("{path}?page=1&count=2"), &key)
            .await
            .assert_compat_error(StatusCode::UNPROCESSABLE_ENTITY);
    }
    // Unknown vendor paths answer 404 in the compatibility envelope.
    server
        .get("/v1/chain/getNothing", &key)
        .await
        .assert_compat_error(StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_vendors_messaging_app_and_work_chat_operations_answer_by_its_names() {
    let server = TestServer::start().await;
    let (user, key) = server
        .user_with_key("wx-vendor", crate::wx_support::WX_SCOPES)
        .await;
    let vendor = VendorClient {
        server: &server,
        key: key.clone(),
        key_in: KeyIn::Query,
    };
    for link in ["L1", "L2", "L3"] {
        crate::workchat::add_assembly(&server, user, link, false).await;
    }
    // getCustomerAssemblyList: `page` from 1 and `pageCount`, the page size.
    let page = vendor
        .call(
            Method::GET,
            "chain/getCustomerAssemblyList",
            &[("page", "2".into()), ("pageCount", "2".into())],
            json!({}),
        )
        .await;
    assert_eq!(int(&page, "total"), 3, "{page}");
    assert_eq!(page["list"].as_array().map(Vec::len), Some(1), "{page}");
    assert_eq!(page["list"][0]["link_id"], "L3");
    let first = vendor
        .call(
            Method::GET,
            "chain/getCustomerAssemblyList",
            &[("page", "1".into()), ("pageCount", "2".into())],
            json!({}),
        )
        .await;
    let assembly = int(&first["list"][0], "id");

    // createWxChain: the external-chain create fields, `group_id` as a string.
    let group = vendor
        .call(
            Method::POST,
            "chainGroup/createChainGroup",
            &[],
            json!({"name": "wx", "chain_type": 2}),
        )
        .await;
    let group_id = text(&group, "group_id").to_owned();
    let created = vendor
        .call(
            Method::POST,
            "chain/createWxChain",
            &[],
            json!({"chain_title": "Join", "chain_type": 2, "group_id": group_id, "domain": null,
                   "sub_type": 2, "wx_id": "shop_helper", "is_direct_jump": 0,
                   "jump_template_id": 0}),
        )
        .await;
    let code = text(&created, "chain").to_owned();
    assert!(text(&created, "render_url").ends_with(&format!("/{code}")));
    let info = server
        .get(&format!("/openapi/v1/wxchain/info?chain={code}"), &key)
        .await;
    assert_eq!(info.compat_result()["wx_id"], "shop_helper");

    // editWxworkChain: a work-chat chain made on the action path, edited by the vendor's name.
    let workchat = server
        .post(
            "/openapi/v1/workchat/chain/create",
            &key,
            json!({"chain_title": "Sales", "chain_type": 3, "wxwork_type": 1,
                   "customer_id": assembly, "is_direct_jump": 1, "jump_template_id": 0}),
        )
        .await;
    let chain = workchat.compat_result()["chain"]
        .as_str()
        .unwrap()
        .to_owned();
    vendor
        .call(
            Method::POST,
            "chain/editWxworkChain",
            &[],
            json!({"chain": chain, "chain_title": "Sales team", "wxwork_type": 2,
                   "target_url": "https://work.example.com/custom", "customer_id": null}),
        )
        .await;
    let visit = server.visit(&chain).await;
    assert_eq!(visit.status, StatusCode::FOUND, "{}", visit.text);
    assert_eq!(visit.headers["location"], "https://work.example.com/custom");
}

#[tokio::test]
async fn v1_is_reserved_but_a_chain_stored_with_it_keeps_its_link() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("reserved").await;
    for code in ["v1", "V1"] {
        let refused = server
            .post(
                "/chains",
                &key,
                json!({"target_url": "https://e.example/", "code": code}),
            )
            .await;
        refused.assert_primary_error(StatusCode::BAD_REQUEST, "invalid_code");
    }
    // A chain that held the code before it was reserved (as an upgraded database may).
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://old.example/", "code": "old-v1"}),
        )
        .await;
    assert_eq!(
        server.sql("UPDATE chains SET code = 'v1' WHERE code = 'old-v1'"),
        1
    );
    let visit = server.visit("v1").await;
    assert_eq!(visit.status, StatusCode::FOUND, "{}", visit.text);
    assert_eq!(visit.headers["location"], "https://old.example/");
    let listed = server.get(&format!("/chains/{}", chain["id"]), &key).await;
    assert_eq!(listed.primary_data()["code"], "v1");
    // The vendor's paths under it are operations, not codes.
    server
        .get("/v1/chain/getChainList", &key)
        .await
        .compat_result();
}
