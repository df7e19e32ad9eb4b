//! How page chains, their channels and work-chat data print.

use linkapi_core::wire::{admin, compat, primary};

use crate::output::{Column, Record, col};

impl Record for primary::CreatedWxChain {
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |c| c.id.to_string()),
            col("CODE", |c| c.code.clone()),
            col("URL", |c| c.render_url.clone()),
            col("SUB TYPE", |c| sub_type_label(c.sub_type).to_owned()),
        ]
    }
}

impl Record for compat::CreatedWxChain {
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("CODE", |c| c.chain.clone()),
            col("URL", |c| c.render_url.clone()),
        ]
    }
}

/// What a `sub_type` leads to, in a word.
fn sub_type_label(sub_type: i64) -> &'static str {
    match sub_type {
        1 => "scan QR",
        2 => "account ID",
        3 => "mini-program",
        4 => "shop",
        5 => "work-chat URL",
        _ => "",
    }
}

impl Record for primary::WxChain {
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |c| c.chain.id.to_string()),
            col("CODE", |c| c.chain.code.clone()),
            col("URL", |c| c.chain.render_url.clone()),
            col("LEADS TO", |c| {
                if c.chain.chain_type == 3 {
                    "work chat".to_owned()
                } else {
                    sub_type_label(c.chain.sub_type.unwrap_or(1)).to_owned()
                }
            }),
            col("TITLE", |c| c.chain.chain_title.clone()),
            col("PAGE", |c| {
                if c.is_direct_jump == 1 {
                    "direct jump".to_owned()
                } else {
                    format!("template {}", c.jump_template_id)
                }
            }),
            col("STATUS", |c| c.chain.status_label.clone()),
            col("VISITS", |c| c.chain.pv_history.to_string()),
        ]
    }
}

impl Record for compat::Channel {
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("CHANNEL", |c| c.id.to_string()),
            col("NAME", |c| c.qrcode_name.clone()),
            col("SORT", |c| c.sort.to_string()),
            col("RATIO", |c| c.ratio.to_string()),
            col("VISITS", |c| {
                if c.visit_limit == 0 {
                    c.visit_count.to_string()
                } else {
                    format!("{} / {}", c.visit_count, c.visit_limit)
                }
            }),
            col("ON", |c| {
                if c.status == 1 { "yes" } else { "no" }.to_owned()
            }),
            col("EXPIRES", |c| {
                if c.qrcode_time == 0 {
                    String::new()
                } else {
                    linkapi_core::clock::format_rfc3339(c.qrcode_time)
                }
            }),
            col("QR IMAGE", |c| c.url.clone()),
        ]
    }
}

impl Record for compat::WorkchatChainInfo {
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |c| c.chain_id.to_string()),
            col("CODE", |c| c.chain.clone()),
            col("URL", |c| c.render_url.clone()),
            col("LEADS TO", |c| c.target_url.clone()),
            col("VIA", |c| {
                if c.wxwork_type == 1 {
                    format!("assembly {}", c.customer_id)
                } else {
                    "custom URL".to_owned()
                }
            }),
            col("CHANNEL", |c| {
                c.channel_list
                    .first()
                    .map_or_else(String::new, |ch| ch.id.to_string())
            }),
            col("VISITS", |c| c.pv_history.to_string()),
        ]
    }
}

impl Record for compat::AssemblyItem {
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |a| a.id.to_string()),
            col("LINK", |a| a.link_id.clone()),
            col("NAME", |a| a.link_name.clone()),
            col("URL", |a| a.url.clone()),
            col("USE", |a| a.use_status_description.clone()),
            col("AUTH", |a| a.auth_status.clone()),
        ]
    }
}

impl Record for admin::Assembly {
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |a| a.id.to_string()),
            col("USER", |a| a.user_id.to_string()),
            col("LINK", |a| a.link_id.clone()),
            col("NAME", |a| a.link_name.clone()),
            col("URL", |a| a.url.clone()),
            col("USE", |a| {
                match a.use_status {
                    1 => "in use",
                    2 => "invalid",
                    _ => "not in use",
                }
                .to_owned()
            }),
        ]
    }
}
