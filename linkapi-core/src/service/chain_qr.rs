//! QR codes of the caller's chains (see [`crate::qr`] for the rendering).

use super::{App, Principal};
use crate::error::{Error, Result, names};
use crate::model::ChainId;
use crate::model::limits::QR_SIZES;
use crate::qr::{DEFAULT_SIZE, QrFormat, render};

impl App {
    /// A QR code of one of the caller's chains: its `render_url`, as a `format` image about
    /// `size` pixels wide (default 256).
    ///
    /// # Errors
    /// 400 for an unknown format or a size outside 64 to 2048; 404 when the caller has no such
    /// live chain.
    pub async fn chain_qr(
        &self,
        who: &Principal,
        id: ChainId,
        format: Option<&str>,
        size: Option<u32>,
    ) -> Result<(QrFormat, Vec<u8>)> {
        let format = match format {
            None => QrFormat::Png,
            Some(name) => QrFormat::parse(name).ok_or_else(|| {
                Error::bad_request(names::INVALID_FORMAT, "format must be png or svg")
            })?,
        };
        let size = size.unwrap_or(DEFAULT_SIZE);
        if !QR_SIZES.contains(&size) {
            return Err(Error::bad_request(
                names::INVALID_SIZE,
                format!(
                    "size must be {} to {} pixels",
                    QR_SIZES.start(),
                    QR_SIZES.end()
                ),
            ));
        }
        let chain = self
            .store()
            .chain(who.user_id, id)
            .await?
            .ok_or(Error::NotFound("chain"))?;
        let image = render(&chain.render_url(), format, size)
            .map_err(|err| Error::Internal(Box::new(err)))?;
        Ok((format, image))
    }
}
