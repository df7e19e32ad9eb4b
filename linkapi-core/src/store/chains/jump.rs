//! A page chain's jump settings as columns: which they are, in what order both backends
//! select and write them, and how a row's values become [`JumpSettings`].

use super::super::{StoreError, StoreResult, StoredRow};
use crate::model::{
    ChainKind, JumpSettings, PAGE_TEXT_COUNT, PageTexts, Rotation, ShowType, TemplateId, VisitCap,
    WorkchatKind,
};

/// The columns of a page chain's texts, in [`PageTexts::ALL`] order (the model's `desc` is
/// the column `description`).
pub(crate) const TEXT_COLUMNS: [&str; PAGE_TEXT_COUNT] = [
    "guide_text",
    "description",
    "sub_title",
    "scan_qr_url",
    "avatar",
    "qwhk_url",
    "wx_id",
    "mini_appid",
    "mini_path",
    "shop_appid",
    "shop_path",
];

/// The columns of the rest of [`JumpSettings`], in the order [`JumpRow`] reads them.
pub(crate) const INT_COLUMNS: [&str; 8] = [
    "is_direct_jump",
    "show_type",
    "jump_template_id",
    "scan_tips",
    "qrcode_vc_type",
    "visit_type",
    "wxwork_type",
    "customer_id",
];

/// Every jump column, texts then integers, in the order [`JumpRow`] reads them.
pub(crate) fn jump_columns() -> impl Iterator<Item = &'static str> {
    TEXT_COLUMNS.into_iter().chain(INT_COLUMNS)
}

/// The columns of [`JumpSettings`] as both backends select them with the chain (alias `c`).
pub(crate) static JUMP_COLUMNS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    jump_columns()
        .map(|column| format!("c.{column}"))
        .collect::<Vec<_>>()
        .join(", ")
});

/// How many columns [`JUMP_COLUMNS`] names.
pub(crate) const JUMP_COLUMN_COUNT: usize = PAGE_TEXT_COUNT + INT_COLUMNS.len();

/// The statement writing every jump column of the chain `$1`, the columns from `$2` in
/// [`jump_columns`] order, with `placeholder` making a parameter of a position (`?2`, `$2`).
pub(crate) fn set_jump_statement(placeholder: fn(usize) -> String) -> String {
    let sets: Vec<String> = jump_columns()
        .enumerate()
        .map(|(i, column)| format!("{column} = {}", placeholder(i + 2)))
        .collect();
    format!(
        "UPDATE chains SET {} WHERE id = {}",
        sets.join(", "),
        placeholder(1)
    )
}

/// [`JUMP_COLUMNS`] as read from a row, before the integer codes are checked.
pub(crate) struct JumpRow {
    pub(crate) texts: [Option<String>; PAGE_TEXT_COUNT],
    pub(crate) ints: [Option<i64>; 8],
}

/// A stored integer code that names nothing: data damaged at rest.
#[derive(Debug, thiserror::Error)]
#[error("stored {field} {value} is not a known code")]
pub(crate) struct BadStoredCode {
    pub(crate) field: &'static str,
    pub(crate) value: i64,
}

impl JumpRow {
    /// The settings, for a chain of `kind` (short chains have none).
    pub(crate) fn settings(self, kind: ChainKind) -> StoreResult<Option<Box<JumpSettings>>> {
        if kind == ChainKind::Short {
            return Ok(None);
        }
        let texts = PageTexts::from_values(self.texts.map(Option::unwrap_or_default));
        let [
            direct_jump,
            show_type,
            template_id,
            scan_tips,
            visit_cap,
            rotation,
            workchat_kind,
            customer_id,
        ] = self.ints;
        fn code<T>(
            field: &'static str,
            value: Option<i64>,
            default: i64,
            from: fn(i64) -> Option<T>,
        ) -> StoreResult<T> {
            let value = value.unwrap_or(default);
            from(value).ok_or_else(|| StoreError::backend(BadStoredCode { field, value }))
        }
        Ok(Some(Box::new(JumpSettings {
            texts,
            direct_jump: direct_jump.unwrap_or(0) != 0,
            show_type: code("show_type", show_type, 1, ShowType::from_code)?,
            template_id: TemplateId(template_id.unwrap_or(0)),
            scan_tips: scan_tips.unwrap_or(0) != 0,
            visit_cap: code("qrcode_vc_type", visit_cap, 1, VisitCap::from_code)?,
            rotation: code("visit_type", rotation, 1, Rotation::from_code)?,
            workchat_kind: workchat_kind
                .map(|k| code("wxwork_type", Some(k), 0, WorkchatKind::from_code))
                .transpose()?,
            customer_id,
        })))
    }
}

/// [`JumpSettings`] as column values, in [`JUMP_COLUMNS`] order.
pub(crate) fn jump_values(jump: &JumpSettings) -> ([&str; PAGE_TEXT_COUNT], [Option<i64>; 8]) {
    (
        jump.texts.values(),
        [
            Some(i64::from(jump.direct_jump)),
            Some(jump.show_type.code()),
            Some(jump.template_id.0),
            Some(i64::from(jump.scan_tips)),
            Some(jump.visit_cap.code()),
            Some(jump.rotation.code()),
            jump.workchat_kind.map(WorkchatKind::code),
            jump.customer_id,
        ],
    )
}

/// Reads [`JUMP_COLUMNS`] starting at `at`.
pub(super) fn jump_row(row: &dyn StoredRow, at: usize) -> StoreResult<JumpRow> {
    let mut texts: [Option<String>; PAGE_TEXT_COUNT] = Default::default();
    for (i, text) in texts.iter_mut().enumerate() {
        *text = row.opt_text(at + i)?;
    }
    let mut ints = [None; 8];
    for (i, int) in ints.iter_mut().enumerate() {
        *int = row.opt_int(at + texts.len() + i)?;
    }
    debug_assert_eq!(texts.len() + ints.len(), JUMP_COLUMN_COUNT);
    Ok(JumpRow { texts, ints })
}
