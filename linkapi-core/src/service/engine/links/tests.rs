//! The link table: records round-trip every field, weights hold, entries age out.

use std::sync::Arc;

use super::LinkTable;
use super::entry::LinkRef;
use super::record::PAGE_WEIGHT;
use crate::model::{ChainId, ChainKind, ChainStatus, DomainId, RedirectRule, UserId};
use crate::store::LinkTarget;

fn link(chain: i64, target: &str) -> LinkTarget {
    LinkTarget {
        chain_id: ChainId(chain),
        kind: ChainKind::Short,
        target_url: target.to_owned(),
        valid_time: 0,
        status: ChainStatus::Normal,
        deleted: false,
        user_id: UserId(7),
        page: None,
        rules: None,
        options: None,
    }
}

fn fill(table: &LinkTable, domain: i64, code: &str, cached: Option<LinkTarget>) {
    let load = table.begin_load();
    table.fill(load, &LinkRef::new(DomainId(domain), code), &cached);
}

fn found(table: &LinkTable, domain: i64, code: &str) -> Option<Option<LinkTarget>> {
    table
        .get(&LinkRef::new(DomainId(domain), code))
        .map(|(cached, _)| cached)
}

#[test]
fn what_was_filed_comes_back_whole_and_invalidates_alone() {
    let table = LinkTable::new(1 << 20);
    let rules: Vec<RedirectRule> =
        serde_json::from_str(r#"[{"target_url":"https://e.com/ios","language":"fr"}]"#)
            .expect("rules");
    let every_field = LinkTarget {
        chain_id: ChainId(4_000_000_000),
        kind: ChainKind::Card,
        target_url: "https://e.com/ünïcode?x=1&y=2".to_owned(),
        valid_time: 1_900_000_000_123,
        status: ChainStatus::Disabled,
        deleted: true,
        user_id: UserId(3_000_000_000),
        page: None,
        rules: Some(rules.into()),
        options: Some(Arc::new(crate::model::LinkOptions {
            redirect_status: Some(crate::model::RedirectStatus::Permanent),
            valid_since: 1_800_000_000,
            max_visits: 3,
            preview: Some(crate::model::LinkPreview {
                title: "A title".into(),
                description: String::new(),
                image: "https://img.example/a.png".into(),
            }),
        })),
    };
    fill(&table, 1, "abc", Some(every_field.clone()));
    fill(&table, 2, "abc", Some(link(2, "https://e.com/2")));
    fill(&table, 1, "a-code-of-more-than-eight-bytes", None);
    // Targets not beginning with https://, shorter than it, or empty; codes of every
    // length modulo a word.
    let plain = [
        ("c", "http://e.com/plain"),
        ("co", "https:/"),
        ("cod", ""),
        ("code", "https://"),
        ("code5", "HTTPS://e.com/"),
        ("code-6", "/relative"),
        ("code--7", "https://e.com/ü"),
        ("code---8", "https://e.com/eight"),
        ("code----9", "ftp://e.com/"),
    ];
    for (chain, (code, target)) in plain.iter().enumerate() {
        fill(&table, 3, code, Some(link(chain as i64, target)));
    }
    assert_eq!(found(&table, 1, "abc"), Some(Some(every_field)));
    assert_eq!(
        found(&table, 2, "abc"),
        Some(Some(link(2, "https://e.com/2")))
    );
    assert_eq!(
        found(&table, 1, "a-code-of-more-than-eight-bytes"),
        Some(None)
    );
    for (chain, (code, target)) in plain.iter().enumerate() {
        let read = found(&table, 3, code);
        assert_eq!(read, Some(Some(link(chain as i64, target))));
        // The `Location` header takes the target's buffer only when nothing is spare.
        let url = read.flatten().map(|l| l.target_url).unwrap_or_default();
        assert_eq!(url.capacity(), url.len(), "{url:?}");
    }
    assert_eq!(found(&table, 1, "abd"), None);
    assert_eq!(found(&table, 1, "ab"), None);
    table.invalidate(&LinkRef::new(DomainId(1), "abc"));
    assert_eq!(found(&table, 1, "abc"), None);
    assert_eq!(
        found(&table, 2, "abc"),
        Some(Some(link(2, "https://e.com/2")))
    );
    // Filled again: the new answer replaces the old.
    fill(&table, 2, "abc", Some(link(2, "https://e.com/new")));
    assert_eq!(
        found(&table, 2, "abc"),
        Some(Some(link(2, "https://e.com/new")))
    );
    assert_eq!(table.len(), 2 + plain.len());
}

#[test]
fn links_it_cannot_hold_are_not_cached() {
    let table = LinkTable::new(1 << 20);
    fill(&table, 1, "big", Some(link(1 << 40, "https://e.com/")));
    fill(&table, 1, &"c".repeat(300), None);
    fill(&table, 1, "long", Some(link(1, &"x".repeat(200_000))));
    fill(&table, 1 << 24, "far", Some(link(1, "https://e.com/")));
    // A link cached, then filled again with what cannot be held: the old answer goes.
    fill(&table, 1, "grew", Some(link(1, "https://e.com/")));
    fill(&table, 1, "grew", Some(link(1, &"x".repeat(200_000))));
    fill(&table, 1, "ids", Some(link(1, "https://e.com/")));
    fill(&table, 1, "ids", Some(link(1 << 40, "https://e.com/")));
    let small = LinkTable::new(64 << 10);
    fill(&small, 1, "page", Some(link(1, "https://e.com/")));
    fill(&small, 1, "page", Some(link(1, &"y".repeat(600))));
    assert_eq!(found(&small, 1, "page"), None);
    fill(&table, 1 << 24, "far-missing", None);
    assert_eq!(found(&table, 1, "big"), None);
    assert_eq!(found(&table, 1 << 24, "far"), None);
    assert_eq!(found(&table, 1 << 24, "far-missing"), None);
    assert_eq!(found(&table, 1, "grew"), None);
    assert_eq!(found(&table, 1, "ids"), None);
    assert_eq!(found(&table, 1, &"c".repeat(300)), None);
    assert_eq!(found(&table, 1, "long"), None);
    assert_eq!(table.len(), 0);
}

#[test]
fn forgetting_missing_codes_keeps_the_links() {
    let table = LinkTable::new(1 << 20);
    fill(&table, 1, "here", Some(link(1, "https://e.com/")));
    fill(&table, 1, "gone", None);
    table.forget_missing();
    assert!(found(&table, 1, "here").is_some());
    assert_eq!(found(&table, 1, "gone"), None);
    table.clear();
    assert_eq!(found(&table, 1, "here"), None);
    fill(&table, 1, "here", Some(link(1, "https://e.com/")));
    assert!(found(&table, 1, "here").is_some());
}

#[test]
fn a_records_load_instant_is_never_later_than_its_load_began() {
    // Freshness trusts a record read within a window of its load: an instant rounded up
    // would stretch that window.
    let table = LinkTable::new(1 << 20);
    for i in 0..50 {
        std::thread::sleep(std::time::Duration::from_micros(300));
        let key = LinkRef::new(DomainId(1), "abc");
        let load = table.begin_load();
        let began = load.began();
        table.fill(load, &key, &Some(link(i, "https://e.com/")));
        let (_, loaded) = table.get(&key).expect("filled");
        assert!(loaded <= began, "{i}: loaded after its load began");
        assert!(
            began.duration_since(loaded) < std::time::Duration::from_millis(1),
            "{i}: rounded down by more than a millisecond"
        );
    }
}

#[test]
fn a_fill_that_raced_an_invalidation_is_dropped() {
    let table = LinkTable::new(1 << 20);
    let load = table.begin_load();
    table.invalidate(&LinkRef::new(DomainId(1), "other"));
    table.fill(
        load,
        &LinkRef::new(DomainId(1), "abc"),
        &Some(link(1, "https://e.com/old")),
    );
    assert_eq!(found(&table, 1, "abc"), None);
}

#[test]
fn the_table_holds_links_up_to_its_bytes_and_keeps_those_in_use() {
    let bytes = 1 << 20;
    let table = LinkTable::new(bytes);
    let target = format!("https://e.com/{}", "x".repeat(66));
    let hot: Vec<String> = (0..200).map(|i| format!("hot{i}")).collect();
    for code in &hot {
        fill(&table, 1, code, Some(link(1, &target)));
    }
    // Looked up every 100 fills, far less than a ring's turn: a link in use is never
    // evicted, so never missed (refilled all the same, as a redirect would, should it be).
    let mut missed = 0;
    for i in 0..100_000 {
        fill(&table, 1, &format!("c{i:06}"), Some(link(i, &target)));
        if i % 100 == 0 {
            for code in &hot {
                if found(&table, 1, code).is_none() {
                    missed += 1;
                    fill(&table, 1, code, Some(link(1, &target)));
                }
            }
        }
    }
    assert_eq!(missed, 0, "links in use were evicted and read again");
    // A 7-byte code and an 80-byte https target take 13 words: the ring (7/8 of the
    // bytes) holds at most 8,822 of them, and the ring's tail end loses few.
    let held = table.len();
    assert!(
        (8_500..=8_822).contains(&held),
        "{held} links held in {bytes} bytes"
    );
    let kept = hot.iter().filter(|c| found(&table, 1, c).is_some()).count();
    assert_eq!(kept, hot.len(), "links in use were evicted");
    // A page's weight counts: far fewer page chains fit, and each comes back whole.
    let table = LinkTable::new(bytes);
    let page = Arc::new(crate::store::PageTarget {
        user_id: UserId(7),
        title: "A page".to_owned(),
        sub_type: Some(1),
        settings: crate::model::JumpSettings::default(),
        channels: Vec::new(),
    });
    let page_chain = |chain| LinkTarget {
        kind: ChainKind::Messaging,
        page: Some(page.clone()),
        ..link(chain, "")
    };
    for i in 0..10_000 {
        fill(&table, 1, &format!("p{i:05}"), Some(page_chain(i)));
    }
    let held = table.len() as u64;
    assert!(
        held < bytes / PAGE_WEIGHT as u64,
        "{held} page chains held in {bytes} bytes"
    );
    assert_eq!(found(&table, 1, "p09999"), Some(Some(page_chain(9_999))));
}

#[test]
fn many_short_records_are_bounded_by_the_index_share_too() {
    // 1 MiB: each shard's eighth left by the ring affords 1,024 slots, 768 records, where
    // its ring would take 2,389 three-word records of codes the store did not have.
    let table = LinkTable::new(1 << 20);
    for i in 0..100_000 {
        fill(&table, 1, &format!("m{i}"), None);
    }
    let held = table.len();
    assert!(
        (12_000..=16 * 768).contains(&held),
        "{held} missing codes held"
    );
    assert_eq!(found(&table, 1, "m99999"), Some(None));
}

#[test]
fn racing_readers_and_writers_only_ever_find_a_codes_own_link() {
    let table = Arc::new(LinkTable::new(64 << 10));
    let target = |code: &str| format!("https://e.com/{code}/{}", "y".repeat(code.len() * 3));
    let threads: Vec<_> = (0..8u64)
        .map(|t| {
            let table = table.clone();
            std::thread::spawn(move || {
                let mut seen = 0;
                for i in 0..20_000u64 {
                    let n = (i * 7 + t * 13) % 3_000;
                    let code = format!("k{n}");
                    let key = LinkRef::new(DomainId((n % 3) as i64), &code);
                    match i % 5 {
                        0 => table.invalidate(&key),
                        1 | 2 => {
                            let load = table.begin_load();
                            let cached = (n % 4 != 0).then(|| link(n as i64, &target(&code)));
                            table.fill(load, &key, &cached);
                        }
                        _ => {
                            if let Some((cached, _)) = table.get(&key) {
                                seen += 1;
                                if let Some(found) = cached {
                                    assert_eq!(found, link(n as i64, &target(&code)));
                                } else {
                                    assert_eq!(n % 4, 0, "{code}: a miss cached for a link");
                                }
                            }
                        }
                    }
                }
                seen
            })
        })
        .collect();
    let seen: usize = threads
        .into_iter()
        .map(|t| t.join().expect("no reader or writer panicked"))
        .sum();
    assert!(seen > 1_000, "only {seen} lookups found anything");
}
