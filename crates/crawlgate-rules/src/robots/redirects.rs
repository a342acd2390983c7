//! The redirect chain of a robots.txt fetch: where it ended, and the chain as evidence.

use crawlgate_core::Evidence;
use crawlgate_core::site::RobotsFile;

/// Where the redirect chain of `file` ended: the final response's URL, or for a chain that broke
/// off (a loop, too many hops) the last `Location` it was sent to.
pub(crate) fn chain_end(file: &RobotsFile) -> String {
    if let Ok(received) = &file.outcome {
        return received.final_url.to_string();
    }
    let Some(last) = file.hops.last() else {
        return file.url.to_string();
    };
    let target = last.location.as_deref().and_then(|location| {
        url::Url::parse(&last.url)
            .ok()
            .and_then(|from| from.join(location).ok())
    });
    target.map_or_else(|| last.url.clone(), |url| url.to_string())
}

/// The redirect chain as evidence, when there was one.
pub(crate) fn redirect_evidence(file: &RobotsFile) -> Option<Evidence> {
    (!file.hops.is_empty()).then(|| Evidence::Redirect {
        url: file.url.to_string(),
        hops: file.hops.clone(),
        final_url: chain_end(file),
    })
}
