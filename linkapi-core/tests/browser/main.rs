//! Tests in a real headless Chromium: the jump pages people see (`pages`), in a browser driven
//! by `chromium`. A harness of its own (libtest-mimic) so that where no Chromium is installed
//! and none is required (`CI`, `LINKAPI_TEST_BROWSER`), the tests are listed as ignored in
//! the summary rather than passing without having run.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

use std::future::Future;
use std::process::ExitCode;

use libtest_mimic::{Arguments, Failed, Trial};

mod chromium;
mod pages;
#[path = "../pg_cluster.rs"]
mod pg_cluster;
#[allow(dead_code)] // the server tests' support; these use a part
#[path = "../api/support.rs"]
mod support;
#[path = "../api/wx_support.rs"]
mod wx_support;

/// Runs an async test on a runtime of its own, as `#[tokio::test]` does; a panic is the
/// harness's to report.
fn run<F: Future<Output = ()>>(test: fn() -> F) -> Result<(), Failed> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(test());
    Ok(())
}

macro_rules! trials {
    ($($module:ident::$test:ident),* $(,)?) => {
        vec![$(Trial::test(
            concat!(stringify!($module), "::", stringify!($test)),
            || run($module::$test),
        )),*]
    };
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let missing = chromium::missing();
    if missing {
        eprintln!(
            "chromium not found: the browser tests are ignored \
             (apt-get install chromium, or set LINKAPI_CHROMIUM)"
        );
    }
    let trials = trials![
        pages::every_template_and_image_layout_renders_on_a_phone,
        pages::hostile_values_in_every_field_stay_inert_in_the_browser,
        pages::a_template_cannot_switch_escaping_off_in_the_browser,
    ];
    let trials = trials
        .into_iter()
        .map(|trial| trial.with_ignored_flag(missing))
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}
