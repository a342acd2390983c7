//! The HTTP `Link` header parser, and the accessors the signal reader calls on its results.

#![no_main]

use crawlgate_core::signals::parse_link_header;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let value = String::from_utf8_lossy(data);
    let links = parse_link_header(&value);
    assert!(links.len() <= 256);
    for link in &links {
        assert!(link.params.len() <= 32);
        let _ = link.rels();
        let _ = link.has_rel("canonical");
        let _ = link.param("hreflang");
    }
});
