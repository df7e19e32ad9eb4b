//! The server's output checked by the tools its users run on it: a real QR decoder
//! (`zbarimg`), a client generated from the API document (openapi-python-client), and
//! openapi-core validating every request and response of a real session against that
//! document. A harness of its own (`needs.rs`), so that where a tool is missing the test is
//! listed as ignored in the summary rather than passing unrun; with `CI` set it fails.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod decoder;
mod generated_client;
#[path = "../needs.rs"]
mod needs;
mod openapi_core;
#[path = "../pg_cluster.rs"]
mod pg_cluster;
#[allow(dead_code)] // the API tests' support; these use a part
#[path = "../api/support.rs"]
mod support;

use needs::{Need, python, runs, trial};

const ZBARIMG: Need = Need {
    name: "zbarimg",
    present: || runs("zbarimg", "--version"),
    install: "apt-get install zbar-tools libmagickcore-6.q16-6-extra",
    in_ci: true,
};

const OPENAPI_PYTHON_CLIENT: Need = Need {
    name: "openapi-python-client",
    present: || runs("openapi-python-client", "--version") && python("httpx"),
    install: "pip install openapi-python-client",
    in_ci: true,
};

const OPENAPI_CORE: Need = Need {
    name: "openapi-core",
    present: || python("openapi_core") && python("requests"),
    install: "pip install 'openapi-core==0.23.*' requests",
    in_ci: true,
};

fn main() -> std::process::ExitCode {
    let _ = rustls::crypto::ring::default_provider().install_default();
    needs::run(vec![
        trial(
            "decoder::a_real_decoder_reads_png_and_svg_codes_at_every_size",
            &[&ZBARIMG],
            || needs::block_on(decoder::a_real_decoder_reads_png_and_svg_codes_at_every_size()),
        ),
        trial(
            "generated_client::a_client_generated_from_the_document_builds_and_runs_a_session",
            &[&OPENAPI_PYTHON_CLIENT],
            || {
                needs::block_on(
                    generated_client::a_client_generated_from_the_document_builds_and_runs_a_session(),
                );
            },
        ),
        trial(
            "openapi_core::every_request_and_response_of_a_session_validates",
            &[&OPENAPI_CORE],
            || needs::block_on(openapi_core::every_request_and_response_of_a_session_validates()),
        ),
    ])
}
