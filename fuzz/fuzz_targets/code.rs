#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| linkapi_core::fuzzing::code(data));
