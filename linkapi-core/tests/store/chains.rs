//! Chains, their channels and the daily creation counter.

use std::sync::Arc;

use linkapi_core::model::{
    ChainId, ChainKind, ChainStatus, ChannelId, DomainId, GroupId, JumpSettings, PageTexts,
    RedirectRule, RuleDevice, UserId, VisitCap,
};
use linkapi_core::store::{
    ChainFilter, ChainPatch, ChainQuery, ChannelEdit, ChannelInput, NewGroup, Store, StoreError,
    Unique,
};

use crate::{T0, conformance, domain, short_chain, tx, user};

conformance!(
    a_page_chain_reads_back_with_its_groups_settings_and_channels,
    chain_codes_are_unique_per_domain_even_when_inserts_race,
    plain_chains_inserted_together_each_get_their_code_or_none,
    plain_inserts_racing_over_the_same_codes_in_any_order_each_code_inserted_once,
    chain_listings_page_newest_first_and_filter,
    a_walk_over_a_users_chains_sees_each_once_in_id_order,
    chain_patches_change_only_what_they_name,
    deleted_chains_keep_their_code_and_answer_as_deleted,
    a_link_read_after_a_commit_sees_it_while_reads_race,
    links_read_at_once_each_get_their_own,
    daily_creation_counts_are_distinct_when_creates_race,
    reservations_for_several_owners_grant_each_what_fits,
    channel_visits_never_exceed_their_cap_when_takes_race,
    a_short_chains_rules_go_with_its_link_and_are_replaced_whole,
    chains_read_by_ids_are_the_users_live_ones,
    a_chain_as_inserted_is_the_chain_read_back,
);

fn channel(sort: i64, name: &str, visit_limit: i64) -> ChannelInput {
    ChannelInput {
        sort,
        name: name.to_owned(),
        url: format!("https://img.example/{name}.png"),
        url2: String::new(),
        expires_at: 0,
        ratio: 1,
        visit_limit,
        enabled: true,
    }
}

fn page_settings() -> JumpSettings {
    JumpSettings {
        texts: PageTexts {
            wx_id: "wx-1".to_owned(),
            guide_text: "scan me".to_owned(),
            mini_path: "pages/index?x=1".to_owned(),
            ..PageTexts::default()
        },
        direct_jump: true,
        customer_id: Some(42),
        ..JumpSettings::default()
    }
}

async fn group(store: &Arc<dyn Store>, owner: UserId, name: &'static str) -> GroupId {
    tx!(store, |tx| {
        tx.insert_group(NewGroup {
            user_id: owner,
            name: name.to_owned(),
            chain_type: ChainKind::Messaging,
            created_at: T0,
        })
        .await
    })
    .unwrap()
    .id
}

async fn a_page_chain_reads_back_with_its_groups_settings_and_channels(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "p.example").await;
    let (g1, g2) = (
        group(&store, alice, "one").await,
        group(&store, alice, "two").await,
    );
    let did = d.id;
    let inserted = tx!(store, |tx| {
        let mut chain = short_chain(alice, did, "page1", T0);
        chain.kind = ChainKind::Messaging;
        chain.sub_type = Some(2);
        chain.group_ids = vec![g2, g1];
        chain.jump = Some(page_settings());
        chain.channels = vec![channel(2, "second", 0), channel(1, "first", 3)];
        tx.insert_chain(chain).await
    })
    .unwrap();
    assert_eq!(inserted.kind, ChainKind::Messaging);
    assert_eq!(
        inserted.group_ids,
        vec![g2, g1],
        "groups keep the order given"
    );
    assert_eq!(inserted.domain, d);
    assert_eq!(inserted.jump.as_deref(), Some(&page_settings()));
    assert_eq!(inserted.stored_status, ChainStatus::Normal);
    assert_eq!(
        store.chain(alice, inserted.id).await.unwrap(),
        Some(inserted.clone())
    );

    let link = store.link(d.id, "page1").await.unwrap().unwrap();
    assert_eq!(link.chain_id, inserted.id);
    assert!(!link.deleted);
    let page = link.page.expect("a page chain's link carries its page");
    assert_eq!(page.user_id, alice);
    assert_eq!(page.sub_type, Some(2));
    assert_eq!(page.settings, page_settings());
    let names: Vec<_> = page.channels.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["first", "second"], "channels in sort order");
    assert_eq!(page.channels[0].visit_limit, 3);
    assert_eq!(store.channels(inserted.id).await.unwrap(), page.channels);

    let short = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, did, "s1", T0))
        .await)
    .unwrap();
    assert_eq!(short.jump, None);
    let link = store.link(d.id, "s1").await.unwrap().unwrap();
    assert_eq!(link.page, None);
    assert_eq!(link.target_url, "https://example.com/s1");
    assert_eq!(store.link(d.id, "nope").await.unwrap(), None);
}

async fn chain_codes_are_unique_per_domain_even_when_inserts_race(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let (d1, d2) = (
        domain(&store, "one.example").await.id,
        domain(&store, "two.example").await.id,
    );
    let mut racers = tokio::task::JoinSet::new();
    for _ in 0..16 {
        let store = store.clone();
        racers.spawn(async move {
            tx!(store, |tx| tx
                .insert_chain(short_chain(alice, d1, "same", T0))
                .await)
        });
    }
    let (mut created, mut conflicts) = (0, 0);
    while let Some(outcome) = racers.join_next().await {
        match outcome.unwrap() {
            Ok(_) => created += 1,
            Err(StoreError::Conflict(Unique::ChainCode)) => conflicts += 1,
            Err(other) => panic!("unexpected failure: {other:?}"),
        }
    }
    assert_eq!((created, conflicts), (1, 15));
    // The same code on another domain is another chain.
    tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d2, "same", T0))
        .await)
    .unwrap();
    assert_eq!(store.chains_by_code(alice, "same").await.unwrap().len(), 2);
}

async fn plain_chains_inserted_together_each_get_their_code_or_none(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "together.example").await.id;
    let other = domain(&store, "other.example").await.id;
    let held = store
        .insert_plain_chains(vec![short_chain(alice, d, "held", T0)])
        .await
        .unwrap();
    assert!(held[0].is_some(), "inserted");
    let inserted = store
        .insert_plain_chains(vec![
            short_chain(alice, d, "first", T0),
            short_chain(alice, d, "held", T0),
            short_chain(alice, d, "first", T0),
            short_chain(alice, other, "first", T0),
        ])
        .await
        .unwrap();
    let codes: Vec<Option<(String, i64)>> = inserted
        .iter()
        .map(|c| c.as_ref().map(|c| (c.code.clone(), c.domain.id.0)))
        .collect();
    assert_eq!(
        codes,
        vec![
            Some(("first".to_owned(), d.0)),
            None,
            None,
            Some(("first".to_owned(), other.0)),
        ],
        "a taken code and a code given twice are None; another domain is free"
    );
    let found = store.link(d, "first").await.unwrap().expect("stored");
    assert_eq!(Some(found.chain_id), inserted[0].as_ref().map(|c| c.id));
}

/// Plain inserts that share codes, each listing them in another order (as racing creates
/// whose random codes collide do): none fails, and every code is inserted exactly once. On
/// PostgreSQL, rows inserted in the order given would wait on each other's codes crosswise and
/// one insert would be chosen as a deadlock's victim.
async fn plain_inserts_racing_over_the_same_codes_in_any_order_each_code_inserted_once(
    store: Arc<dyn Store>,
) {
    const RACERS: usize = 12;
    const CODES: usize = 500;
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "crosswise.example").await.id;
    let mut racers = tokio::task::JoinSet::new();
    let start = Arc::new(tokio::sync::Barrier::new(RACERS));
    for racer in 0..RACERS {
        let store = store.clone();
        let start = start.clone();
        // Each racer starts at another code and half of them go backwards.
        let mut codes: Vec<String> = (0..CODES)
            .map(|i| format!("c{:03}", (i + racer * 7) % CODES))
            .collect();
        if racer % 2 == 1 {
            codes.reverse();
        }
        racers.spawn(async move {
            let new = codes.iter().map(|c| short_chain(alice, d, c, T0)).collect();
            // Connected first, so that the inserts start together rather than one connection
            // set-up apart.
            store.ping().await.unwrap();
            start.wait().await;
            store.insert_plain_chains(new).await
        });
    }
    let mut inserted = std::collections::HashMap::new();
    while let Some(outcome) = racers.join_next().await {
        let chains = outcome.unwrap().expect("no racing insert fails");
        for chain in chains.into_iter().flatten() {
            *inserted.entry(chain.code).or_insert(0) += 1;
        }
    }
    assert_eq!(inserted.len(), CODES, "every code is inserted");
    assert!(
        inserted.values().all(|&n| n == 1),
        "by one insert only: {inserted:?}"
    );
}

async fn reservations_for_several_owners_grant_each_what_fits(store: Arc<dyn Store>) {
    let (alice, bob, carol) = (
        user(&store, "alice").await.id,
        user(&store, "bob").await.id,
        user(&store, "carol").await.id,
    );
    let day = T0 - T0 % 86_400;
    // A quota of 10: alice has 8 left after this, bob none.
    assert_eq!(
        store.reserve_creations(alice, day, 2, 10).await.unwrap(),
        Some(2)
    );
    assert_eq!(
        store.reserve_creations(bob, day, 10, 10).await.unwrap(),
        Some(10)
    );
    let granted = store
        .reserve_creations_each(
            vec![
                (carol, day, 3),
                (alice, day, 9),
                (bob, day, 1),
                (alice, day + 86_400, 9),
            ],
            10,
        )
        .await
        .unwrap();
    assert_eq!(granted, vec![Some(3), None, None, Some(9)]);
    // What was refused added nothing.
    assert_eq!(
        store.reserve_creations(alice, day, 8, 10).await.unwrap(),
        Some(10)
    );
    assert_eq!(
        store.reserve_creations(bob, day, 1, 10).await.unwrap(),
        None
    );
}

async fn a_walk_over_a_users_chains_sees_each_once_in_id_order(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let d = domain(&store, "l.example").await.id;
    let mut short = Vec::new();
    for (i, code) in ["w0", "w1", "w2", "w3", "w4"].into_iter().enumerate() {
        let chain = tx!(store, |tx| {
            let mut chain = short_chain(alice, d, code, T0 + i as i64);
            if code == "w2" {
                chain.kind = ChainKind::Card;
                chain.jump = Some(JumpSettings::default());
            }
            tx.insert_chain(chain).await
        })
        .unwrap();
        if code != "w2" {
            short.push(chain.id);
        }
    }
    tx!(store, |tx| tx
        .insert_chain(short_chain(bob, d, "bobs", T0))
        .await)
    .unwrap();
    let gone = short.remove(1);
    tx!(store, |tx| tx.delete_chain(alice, gone, T0 + 9).await).unwrap();

    let mut walked = Vec::new();
    let mut after = ChainId(0);
    loop {
        let page = store
            .chains_after(alice, &[ChainKind::Short], after, 2)
            .await
            .unwrap();
        assert!(page.len() <= 2);
        let Some(last) = page.last() else { break };
        after = last.id;
        walked.extend(page.iter().map(|c| c.id));
        if walked.len() == 2 {
            // Created while the walk goes on: met once, at its end.
            let late = tx!(store, |tx| tx
                .insert_chain(short_chain(alice, d, "late", T0 + 20))
                .await)
            .unwrap();
            short.push(late.id);
        }
    }
    assert_eq!(
        walked, short,
        "the user's live short chains, each once, by id"
    );
    let every = store
        .chains_after(alice, &[], ChainId(0), 100)
        .await
        .unwrap();
    assert_eq!(
        every.len(),
        short.len() + 1,
        "every kind when none is named"
    );
}

async fn chain_listings_page_newest_first_and_filter(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let d = domain(&store, "l.example").await.id;
    let g = group(&store, alice, "listed").await;
    let mut ids = Vec::new();
    for (i, code) in ["c0", "c1", "a_b", "c3", "c4"].into_iter().enumerate() {
        let at = T0 + i as i64;
        let chain = tx!(store, |tx| {
            let mut chain = short_chain(alice, d, code, at);
            if code == "c3" {
                chain.kind = ChainKind::Card;
                chain.jump = Some(JumpSettings::default());
                chain.title = "50% off".to_owned();
            }
            if code == "c1" || code == "c4" {
                chain.group_ids = vec![g];
            }
            tx.insert_chain(chain).await
        })
        .unwrap();
        ids.push(chain.id);
    }
    tx!(store, |tx| tx
        .insert_chain(short_chain(bob, d, "bobs", T0 + 9))
        .await)
    .unwrap();

    let query = |offset, limit| ChainQuery {
        offset,
        limit,
        ..ChainQuery::default()
    };
    let page = store.chains(alice, &query(0, 2)).await.unwrap();
    assert_eq!(page.total, 5, "another user's chains are not counted");
    let listed: Vec<ChainId> = page.items.iter().map(|c| c.id).collect();
    assert_eq!(listed, [ids[4], ids[3]], "newest first");
    let page = store.chains(alice, &query(4, 2)).await.unwrap();
    assert_eq!(
        page.items.iter().map(|c| c.id).collect::<Vec<_>>(),
        [ids[0]]
    );

    let only = |q: ChainQuery| {
        let store = store.clone();
        async move {
            let page = store.chains(alice, &q).await.unwrap();
            assert_eq!(page.total as usize, page.items.len());
            page.items
                .iter()
                .map(|c| c.code.clone())
                .collect::<Vec<_>>()
        }
    };
    let kinds = ChainQuery {
        kinds: vec![ChainKind::Card],
        ..query(0, 10)
    };
    assert_eq!(only(kinds).await, ["c3"]);
    let in_group = ChainQuery {
        filter: ChainFilter {
            group_id: Some(g),
            ..ChainFilter::default()
        },
        ..query(0, 10)
    };
    assert_eq!(only(in_group).await, ["c4", "c1"]);
    // LIKE's wildcards in the text are literal characters.
    let underscore = ChainQuery {
        filter: ChainFilter {
            text: Some("a_b".to_owned()),
            ..ChainFilter::default()
        },
        ..query(0, 10)
    };
    assert_eq!(only(underscore).await, ["a_b"]);
    let percent = ChainQuery {
        filter: ChainFilter {
            text: Some("50%".to_owned()),
            ..ChainFilter::default()
        },
        ..query(0, 10)
    };
    assert_eq!(only(percent).await, ["c3"]);
    let none = ChainQuery {
        filter: ChainFilter {
            text: Some("%".to_owned()),
            ..ChainFilter::default()
        },
        kinds: vec![ChainKind::Short],
        ..query(0, 10)
    };
    assert!(only(none).await.is_empty());
}

async fn chain_patches_change_only_what_they_name(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let d = domain(&store, "u.example").await.id;
    let (g1, g2) = (
        group(&store, alice, "one").await,
        group(&store, alice, "two").await,
    );
    let chain = tx!(store, |tx| {
        let mut chain = short_chain(alice, d, "p1", T0);
        chain.kind = ChainKind::Messaging;
        chain.group_ids = vec![g1];
        chain.jump = Some(page_settings());
        chain.channels = vec![
            channel(1, "keep", 0),
            channel(2, "change", 0),
            channel(3, "drop", 0),
        ];
        tx.insert_chain(chain).await
    })
    .unwrap();
    let id = chain.id;
    let channels = store.channels(id).await.unwrap();
    let (changed_id, dropped_id) = (channels[1].id, channels[2].id);

    let title_only = tx!(store, |tx| {
        let patch = ChainPatch {
            title: Some("new title".to_owned()),
            ..ChainPatch::default()
        };
        tx.update_chain(alice, id, &patch, T0 + 10).await
    })
    .unwrap()
    .unwrap();
    assert_eq!(title_only.title, "new title");
    assert_eq!(title_only.target_url, chain.target_url);
    assert_eq!(title_only.group_ids, chain.group_ids);
    assert_eq!(title_only.jump, chain.jump);
    assert_eq!(title_only.updated_at, T0 + 10);
    assert_eq!(title_only.created_at, T0);

    let everything = tx!(store, |tx| {
        let patch = ChainPatch {
            target_url: Some("https://example.com/new".to_owned()),
            status: Some(ChainStatus::Disabled),
            sub_type: Some(3),
            jump: Some(JumpSettings {
                texts: PageTexts {
                    wx_id: "wx-2".to_owned(),
                    ..PageTexts::default()
                },
                ..JumpSettings::default()
            }),
            group_ids: Some(vec![g2, g1]),
            channels: vec![
                ChannelEdit::Change(changed_id, channel(5, "changed", 9)),
                ChannelEdit::Remove(dropped_id),
                ChannelEdit::Add(channel(0, "added", 0)),
            ],
            ..ChainPatch::default()
        };
        tx.update_chain(alice, id, &patch, T0 + 20).await
    })
    .unwrap()
    .unwrap();
    assert_eq!(everything.title, "new title");
    assert_eq!(everything.target_url, "https://example.com/new");
    assert_eq!(everything.stored_status, ChainStatus::Disabled);
    assert_eq!(everything.sub_type, Some(3));
    assert_eq!(everything.group_ids, vec![g2, g1]);
    assert_eq!(
        everything.jump.as_ref().map(|j| j.texts.wx_id.as_str()),
        Some("wx-2")
    );
    let names: Vec<_> = store
        .channels(id)
        .await
        .unwrap()
        .into_iter()
        .map(|c| (c.name, c.visit_limit))
        .collect();
    assert_eq!(
        names,
        [
            ("added".to_owned(), 0),
            ("keep".to_owned(), 0),
            ("changed".to_owned(), 9)
        ]
    );

    let patch_of_other_user = tx!(store, |tx| {
        tx.update_chain(bob, id, &ChainPatch::default(), T0 + 30)
            .await
    });
    assert_eq!(patch_of_other_user.unwrap(), None);
    assert_eq!(store.chain(alice, id).await.unwrap(), Some(everything));
}

async fn deleted_chains_keep_their_code_and_answer_as_deleted(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let d = domain(&store, "d.example").await.id;
    let chain = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "gone", T0))
        .await)
    .unwrap();
    let id = chain.id;
    assert_eq!(
        tx!(store, |tx| tx.delete_chain(bob, id, T0 + 1).await).unwrap(),
        None
    );
    let deleted = tx!(store, |tx| tx.delete_chain(alice, id, T0 + 2).await).unwrap();
    assert_eq!(deleted, Some(chain), "delete answers the chain as it was");
    assert_eq!(
        tx!(store, |tx| tx.delete_chain(alice, id, T0 + 3).await).unwrap(),
        None
    );
    assert_eq!(store.chain(alice, id).await.unwrap(), None);
    assert!(
        store
            .chains_by_code(alice, "gone")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        store
            .chains(
                alice,
                &ChainQuery {
                    limit: 10,
                    ..ChainQuery::default()
                }
            )
            .await
            .unwrap()
            .total,
        0
    );
    let link = store.link(d, "gone").await.unwrap().unwrap();
    assert!(link.deleted);
    let reused = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "gone", T0 + 4))
        .await);
    assert!(
        matches!(reused, Err(StoreError::Conflict(Unique::ChainCode))),
        "{reused:?}"
    );
    let patched = tx!(store, |tx| {
        tx.update_chain(alice, id, &ChainPatch::default(), T0 + 5)
            .await
    });
    assert_eq!(patched.unwrap(), None);
}

/// What a redirect's cache miss relies on: a link read that starts after a change was
/// committed sees it, however busy the readers are (SQLite's readers reuse a read transaction
/// between commits), and no reader goes back to an older version once it saw a newer one.
/// Dozens of links read at the same moment (PostgreSQL reads them in one query) each get
/// their own chain: the same code on two domains, a page chain with its channels, codes
/// nobody has, and one code asked for twice.
async fn links_read_at_once_each_get_their_own(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let (d1, d2) = (
        domain(&store, "one.example").await.id,
        domain(&store, "two.example").await.id,
    );
    for i in 0..20 {
        for d in [d1, d2] {
            tx!(store, |tx| {
                let mut chain = short_chain(alice, d, &format!("c{i}"), T0);
                chain.target_url = format!("https://example.com/{}/{i}", d.0);
                tx.insert_chain(chain).await
            })
            .unwrap();
        }
    }
    let page = tx!(store, |tx| {
        let mut chain = short_chain(alice, d1, "page", T0);
        chain.kind = ChainKind::Messaging;
        chain.sub_type = Some(2);
        chain.jump = Some(page_settings());
        chain.channels = vec![channel(1, "only", 0)];
        tx.insert_chain(chain).await
    })
    .unwrap()
    .id;
    let mut asks: Vec<(DomainId, String)> = Vec::new();
    for i in 0..20 {
        asks.push((d1, format!("c{i}")));
        asks.push((d2, format!("c{i}")));
        asks.push((d2, format!("none{i}")));
    }
    asks.push((d1, "page".to_owned()));
    asks.push((d1, "c7".to_owned()));
    let start = Arc::new(tokio::sync::Barrier::new(asks.len()));
    let mut reads = tokio::task::JoinSet::new();
    for (d, code) in asks {
        let (store, start) = (store.clone(), start.clone());
        reads.spawn(async move {
            start.wait().await;
            let link = store.link(d, &code).await.expect("a read");
            (d, code, link)
        });
    }
    let mut answered = 0;
    while let Some(read) = reads.join_next().await {
        let (d, code, link) = read.expect("a reader");
        answered += 1;
        if code.starts_with("none") {
            assert_eq!(link, None, "{code}");
        } else if code == "page" {
            let link = link.expect("the page chain");
            assert_eq!(link.chain_id, page);
            let page = link.page.expect("its page");
            assert_eq!(page.channels.len(), 1);
            assert_eq!(page.channels[0].name, "only");
        } else {
            let link = link.expect("a chain");
            let i = code.trim_start_matches('c');
            assert_eq!(
                link.target_url,
                format!("https://example.com/{}/{i}", d.0),
                "{code} on {d:?}"
            );
            assert_eq!(link.page, None);
        }
    }
    assert_eq!(answered, 62);
}

async fn a_link_read_after_a_commit_sees_it_while_reads_race(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "r.example").await.id;
    let id = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "moving", T0))
        .await)
    .unwrap()
    .id;
    let version = |url: &str| -> i64 {
        url.rsplit('/')
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or(-1)
    };
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut readers = tokio::task::JoinSet::new();
    for _ in 0..16 {
        let (store, done) = (store.clone(), done.clone());
        readers.spawn(async move {
            let (mut newest, mut reads) = (-1, 0);
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let link = store.link(d, "moving").await.unwrap().unwrap();
                let seen = if link.deleted {
                    i64::MAX
                } else {
                    version(&link.target_url)
                };
                assert!(seen >= newest, "read version {seen} after {newest}");
                newest = seen;
                reads += 1;
                tokio::task::yield_now().await;
            }
            reads
        });
    }
    for v in 0..100_i64 {
        tx!(store, |tx| {
            let patch = ChainPatch {
                target_url: Some(format!("https://example.com/v/{v}")),
                ..ChainPatch::default()
            };
            tx.update_chain(alice, id, &patch, T0 + 1 + v).await
        })
        .unwrap()
        .unwrap();
        let link = store.link(d, "moving").await.unwrap().unwrap();
        assert_eq!(link.target_url, format!("https://example.com/v/{v}"));
    }
    tx!(store, |tx| tx.delete_chain(alice, id, T0 + 100).await)
        .unwrap()
        .unwrap();
    assert!(store.link(d, "moving").await.unwrap().unwrap().deleted);
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut reads = 0;
    while let Some(count) = readers.join_next().await {
        reads += count.unwrap();
    }
    assert!(reads > 100, "the readers read {reads} times");
}

async fn daily_creation_counts_are_distinct_when_creates_race(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let day = T0 - T0 % 86_400;
    let mut racers = tokio::task::JoinSet::new();
    for _ in 0..24 {
        let store = store.clone();
        racers.spawn(async move { tx!(store, |tx| tx.add_creations(alice, day, 1).await) });
    }
    let mut counts = Vec::new();
    while let Some(count) = racers.join_next().await {
        counts.push(count.unwrap().unwrap());
    }
    counts.sort_unstable();
    assert_eq!(
        counts,
        (1..=24).collect::<Vec<i64>>(),
        "every caller sees its own count"
    );
    assert_eq!(
        tx!(store, |tx| tx.add_creations(alice, day + 86_400, 1).await).unwrap(),
        1
    );
    assert_eq!(
        tx!(store, |tx| tx.add_creations(bob, day, 1).await).unwrap(),
        1
    );
    assert_eq!(
        tx!(store, |tx| tx.add_creations(alice, day, 1).await).unwrap(),
        25
    );
}

async fn channel_visits_never_exceed_their_cap_when_takes_race(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "c.example").await.id;
    let chain = tx!(store, |tx| {
        let mut chain = short_chain(alice, d, "capped", T0);
        chain.kind = ChainKind::Messaging;
        chain.jump = Some(JumpSettings::default());
        chain.channels = vec![channel(1, "total", 5), channel(2, "daily", 2)];
        tx.insert_chain(chain).await
    })
    .unwrap();
    let channels = store.channels(chain.id).await.unwrap();
    let (total, daily) = (channels[0].id, channels[1].id);
    let day = T0 - T0 % 86_400;

    let mut racers = tokio::task::JoinSet::new();
    for _ in 0..30 {
        let store = store.clone();
        racers.spawn(async move {
            tx!(store, |tx| tx
                .take_channel_visit(total, VisitCap::Total, 5, day)
                .await)
        });
    }
    let mut taken = Vec::new();
    while let Some(outcome) = racers.join_next().await {
        taken.extend(outcome.unwrap().unwrap());
    }
    taken.sort_unstable();
    // Exactly the cap is given out, and exactly one take is told it used the channel up.
    assert_eq!(taken, [1, 2, 3, 4, 5]);
    assert_eq!(store.channels(chain.id).await.unwrap()[0].visit_count, 5);
    // A total cap holds across days.
    let next_day = day + 86_400;
    assert!(
        tx!(store, |tx| tx
            .take_channel_visit(total, VisitCap::Total, 5, next_day)
            .await)
        .unwrap()
        .is_none()
    );

    let take_daily = |on: i64| {
        let store = store.clone();
        async move {
            tx!(store, |tx| tx
                .take_channel_visit(daily, VisitCap::Daily, 2, on)
                .await)
            .unwrap()
        }
    };
    // Each take says how many the cap's period has had: the one that uses it up says 2.
    assert_eq!(take_daily(day).await, Some(1));
    assert_eq!(take_daily(day).await, Some(2));
    assert_eq!(take_daily(day).await, None, "the day's visits are used up");
    assert_eq!(
        take_daily(next_day).await,
        Some(1),
        "a new day has visits again"
    );
    assert_eq!(store.channels(chain.id).await.unwrap()[1].visit_count, 3);

    // A removed channel gives nothing.
    let id = chain.id;
    tx!(store, |tx| {
        let patch = ChainPatch {
            channels: vec![ChannelEdit::Remove(daily)],
            ..ChainPatch::default()
        };
        tx.update_chain(alice, id, &patch, T0 + 1).await
    })
    .unwrap();
    assert_eq!(take_daily(next_day + 86_400).await, None);
    let missing = ChannelId(daily.0 + 100);
    assert!(
        tx!(store, |tx| tx
            .take_channel_visit(missing, VisitCap::Total, 5, day)
            .await)
        .unwrap()
        .is_none()
    );
}

/// An iOS rule and a German rule with a query condition.
fn two_rules() -> [RedirectRule; 2] {
    [
        RedirectRule {
            device: Some(RuleDevice::Ios),
            country: None,
            language: None,
            query: Default::default(),
            target_url: "https://apps.example/ios".to_owned(),
        },
        RedirectRule {
            device: None,
            country: Some("DE".to_owned()),
            language: Some("de".to_owned()),
            query: [("ref".to_owned(), "a b".to_owned())].into(),
            target_url: "https://example.com/de".to_owned(),
        },
    ]
}

async fn a_short_chains_rules_go_with_its_link_and_are_replaced_whole(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "rules.example").await.id;
    let [ios, german] = two_rules();
    // One by one and in a batch, both with their rules.
    let one = tx!(store, |tx| {
        let mut chain = short_chain(alice, d, "ruled", T0);
        chain.rules = two_rules().into();
        tx.insert_chain(chain).await
    })
    .unwrap();
    assert_eq!(one.rules, two_rules());
    let mut batched = short_chain(alice, d, "batched", T0);
    batched.rules = two_rules().into();
    let batch = store.insert_plain_chains(vec![batched]).await.unwrap();
    assert_eq!(batch[0].as_ref().expect("inserted").rules, two_rules());
    let link = store.link(d, "batched").await.unwrap().expect("stored");
    assert_eq!(link.rules.as_deref(), Some(&two_rules()[..]));
    // None without rules.
    tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "plain", T0))
        .await)
    .unwrap();
    let plain = store.link(d, "plain").await.unwrap().expect("stored");
    assert_eq!(plain.rules, None);

    // A patch naming other fields keeps them; one naming rules replaces them all.
    let id = one.id;
    let titled = tx!(store, |tx| {
        let patch = ChainPatch {
            title: Some("t".to_owned()),
            ..ChainPatch::default()
        };
        tx.update_chain(alice, id, &patch, T0 + 1).await
    })
    .unwrap()
    .unwrap();
    assert_eq!(titled.rules, [ios, german.clone()]);
    let replaced = tx!(store, |tx| {
        let [_, german] = two_rules();
        let patch = ChainPatch {
            rules: Some(vec![german]),
            ..ChainPatch::default()
        };
        tx.update_chain(alice, id, &patch, T0 + 2).await
    })
    .unwrap()
    .unwrap();
    assert_eq!(replaced.rules, std::slice::from_ref(&german));
    let link = store.link(d, "ruled").await.unwrap().expect("stored");
    assert_eq!(link.rules.as_deref(), Some(&[german][..]));
    let cleared = tx!(store, |tx| {
        let patch = ChainPatch {
            rules: Some(Vec::new()),
            ..ChainPatch::default()
        };
        tx.update_chain(alice, id, &patch, T0 + 3).await
    })
    .unwrap()
    .unwrap();
    assert!(cleared.rules.is_empty());
    let link = store.link(d, "ruled").await.unwrap().expect("stored");
    assert_eq!(link.rules, None);
}

async fn chains_read_by_ids_are_the_users_live_ones(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let d = domain(&store, "ids.example").await.id;
    let mut ids = Vec::new();
    for (owner, code) in [(alice, "a1"), (alice, "a2"), (alice, "a3"), (bob, "b1")] {
        let chain = tx!(store, |tx| tx
            .insert_chain(short_chain(owner, d, code, T0))
            .await)
        .unwrap();
        ids.push(chain.id);
    }
    let gone = ids[2];
    tx!(store, |tx| tx.delete_chain(alice, gone, T0 + 1).await).unwrap();
    let mut asked = ids.clone();
    asked.push(ChainId(i64::MAX));
    let mut codes: Vec<String> = store
        .chains_by_ids(alice, &asked)
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.code)
        .collect();
    codes.sort();
    assert_eq!(codes, ["a1", "a2"], "live, the user's, existing");
    assert!(store.chains_by_ids(alice, &[]).await.unwrap().is_empty());
}

/// What an insert answers is what reading the chain back gives, whether it went alone, in a
/// batch or as a plain create: with groups (in the order given), rules, a title and an expiry.
async fn a_chain_as_inserted_is_the_chain_read_back(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "inserted.example").await.id;
    let first = group(&store, alice, "first").await;
    let second = group(&store, alice, "second").await;
    let full = move |code: &str| {
        let mut chain = short_chain(alice, d, code, T0);
        chain.title = "Spring sale".to_owned();
        chain.valid_time = T0 + 86_400;
        chain.group_ids = vec![second, first];
        chain.rules = two_rules().into();
        chain
    };
    let alone = tx!(store, |tx| tx.insert_chain(full("alone")).await).unwrap();
    let batch = tx!(store, |tx| {
        let batched = vec![full("batch-1"), short_chain(alice, d, "batch-2", T0)];
        tx.insert_chains_if_free(batched).await
    })
    .unwrap();
    // The commonest create takes no groups.
    let mut plain = full("plain");
    plain.group_ids.clear();
    let plain = store.insert_plain_chains(vec![plain]).await.unwrap();
    let inserted = [alone]
        .into_iter()
        .chain(batch.into_iter().map(|c| c.expect("inserted")))
        .chain(plain.into_iter().map(|c| c.expect("inserted")));
    for chain in inserted {
        let read = store.chain(alice, chain.id).await.unwrap().expect("stored");
        assert_eq!(chain, read);
    }
}
