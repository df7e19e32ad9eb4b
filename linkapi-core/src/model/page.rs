//! The texts of a page chain: what its page shows and the identifiers of where it leads,
//! declared once. The list below makes the settings' struct ([`PageTexts`]), the edits'
//! ([`PageTextEdits`]) and what each text holds ([`PageText`]), which the service checks by and
//! the store's columns follow; a new text is a line here, its column in the store's list and
//! the migrations, and its field on each surface's wire types.

use super::limits::{MAX_PAGE_TEXT, MAX_SUB_TITLE};

/// What a page text holds, which decides how it is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// Text shown on the page, lines allowed, at most `max` characters.
    Lines {
        /// The most characters.
        max: usize,
    },
    /// An http(s) URL, or empty.
    Url,
    /// An account or app identifier (empty clears it).
    Identifier,
    /// A path inside a mini-program or shop (empty clears it).
    AppPath,
}

/// One page text: its name (the field, and the name its errors give) and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageText {
    /// The field's name.
    pub name: &'static str,
    /// What it holds.
    pub kind: TextKind,
}

macro_rules! page_texts {
    ($($(#[doc = $doc:literal])* $field:ident: $kind:expr;)*) => {
        /// How many page texts there are.
        pub const PAGE_TEXT_COUNT: usize = [$(stringify!($field)),*].len();

        /// A page chain's texts; empty when not set.
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct PageTexts {
            $($(#[doc = $doc])* pub $field: String,)*
        }

        /// Texts an input gives: `Some` sets one (an empty text clears it), `None` leaves it.
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct PageTextEdits {
            $($(#[doc = $doc])* pub $field: Option<String>,)*
        }

        impl PageTexts {
            /// Every text, in the order of [`PageTexts::values`]: the order they are checked in.
            pub const ALL: [PageText; PAGE_TEXT_COUNT] =
                [$(PageText { name: stringify!($field), kind: $kind }),*];

            /// The texts in [`PageTexts::ALL`] order.
            pub fn values(&self) -> [&str; PAGE_TEXT_COUNT] {
                [$(self.$field.as_str()),*]
            }

            /// Texts from values in [`PageTexts::ALL`] order.
            pub fn from_values(values: [String; PAGE_TEXT_COUNT]) -> Self {
                let [$($field),*] = values;
                PageTexts { $($field),* }
            }

            /// The text called `name`.
            pub fn get_mut(&mut self, name: &str) -> Option<&mut String> {
                match name {
                    $(stringify!($field) => Some(&mut self.$field),)*
                    _ => None,
                }
            }
        }

        impl PageTextEdits {
            /// The texts given, in [`PageTexts::ALL`] order.
            pub fn values(&self) -> [Option<&str>; PAGE_TEXT_COUNT] {
                [$(self.$field.as_deref()),*]
            }

            /// The text called `name`, if given.
            pub fn get(&self, name: &str) -> Option<&str> {
                match name {
                    $(stringify!($field) => self.$field.as_deref(),)*
                    _ => None,
                }
            }
        }
    };
}

page_texts! {
    /// A line guiding the visitor.
    guide_text: TextKind::Lines { max: MAX_PAGE_TEXT };
    /// Longer text (`desc`; `promo_desc` on the primary surface).
    desc: TextKind::Lines { max: MAX_PAGE_TEXT };
    /// Line under the heading, shown with show_type 1.
    sub_title: TextKind::Lines { max: MAX_SUB_TITLE };
    /// The chain's own QR image (sub_type 1), shown when no channel is usable.
    scan_qr_url: TextKind::Url;
    /// Avatar image URL.
    avatar: TextKind::Url;
    /// Work-chat acquisition URL (sub_type 5).
    qwhk_url: TextKind::Url;
    /// Messaging-app account ID (sub_type 2).
    wx_id: TextKind::Identifier;
    /// Mini-program app id (sub_type 3).
    mini_appid: TextKind::Identifier;
    /// Path inside the mini-program.
    mini_path: TextKind::AppPath;
    /// Shop app id (sub_type 4).
    shop_appid: TextKind::Identifier;
    /// Path inside the shop.
    shop_path: TextKind::AppPath;
}

impl PageTextEdits {
    /// Whether no text is given.
    pub fn is_empty(&self) -> bool {
        self.values().iter().all(Option::is_none)
    }
}

#[cfg(test)]
mod tests {
    use super::{PageTextEdits, PageTexts};

    #[test]
    fn values_come_back_in_the_order_they_went_in_and_by_name() {
        let values = PageTexts::ALL.map(|t| format!("{}!", t.name));
        let mut texts = PageTexts::from_values(values.clone());
        assert_eq!(texts.shop_path, "shop_path!");
        assert_eq!(texts.values().map(str::to_owned), values);
        *texts.get_mut("desc").expect("a text") = String::new();
        assert_eq!(texts.desc, "");
        assert!(texts.get_mut("title").is_none());
        let edits = PageTextEdits {
            mini_path: Some("/a".into()),
            ..PageTextEdits::default()
        };
        assert_eq!(edits.get("mini_path"), Some("/a"));
        assert_eq!(edits.get("shop_path"), None);
        assert!(!edits.is_empty() && PageTextEdits::default().is_empty());
    }
}
