//! Jump-page templates and uploads.

use super::{TemplateId, Timestamp, UploadId, UserId};

/// Where a jump-page template comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TemplateKind {
    /// Shipped with the server (wire 1); cannot be edited or retired.
    BuiltIn,
    /// Added by an administrator (wire 2).
    Custom,
}

impl TemplateKind {
    /// The wire integer.
    pub fn code(self) -> i64 {
        match self {
            TemplateKind::BuiltIn => 1,
            TemplateKind::Custom => 2,
        }
    }

    /// The kind of a wire integer.
    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            1 => Some(TemplateKind::BuiltIn),
            2 => Some(TemplateKind::Custom),
            _ => None,
        }
    }
}

/// A jump-page template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// Row id; 0 is the generic template.
    pub id: TemplateId,
    /// Offered only to this user; `None` offers it to everyone.
    pub user_id: Option<UserId>,
    /// Display name.
    pub name: String,
    /// The built-in layout it uses when it has no body of its own.
    pub style: String,
    /// Built in or added.
    pub kind: TemplateKind,
    /// Thumbnail image URL, may be empty.
    pub thumb: String,
    /// Page source (a minijinja template) of a custom template; empty uses `style`.
    pub body: String,
    /// When it was added.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
    /// When it was retired: no longer offered, still rendered for chains that use it.
    pub retired_at: Option<Timestamp>,
}

/// An uploaded image as its owner sees it. Several uploads (of several users, or deleted and
/// uploaded again) may name the same object: objects are named by their content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    /// Row id.
    pub id: UploadId,
    /// Owner.
    pub user_id: UserId,
    /// The stored object: the SHA-256 of the bytes, hex, and the type's extension.
    pub object_key: String,
    /// Media type, decided by the bytes.
    pub content_type: String,
    /// Length in bytes.
    pub size_bytes: i64,
    /// The name the client gave, for display only (never a path).
    pub file_name: String,
    /// When it was uploaded.
    pub created_at: Timestamp,
}
