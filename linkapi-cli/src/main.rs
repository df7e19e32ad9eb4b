//! `linkapi`: see the library crate.

fn main() -> std::process::ExitCode {
    linkapi_cli::main()
}
