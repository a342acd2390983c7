use crate::support::shortened;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::RenderOutcome;
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Finds pages that did not render: navigation failed or the browser's page crashed, the
    /// page kept loading or computing past its time budget (`--render-timeout`), or script
    /// errors left its body without text.
    ///
    /// ## Why is this bad?
    /// Google indexes what the rendered page shows. A page whose scripts throw before they
    /// build the content is indexed as the empty shell Google rendered ("make sure your page
    /// works without errors", JavaScript SEO basics: Google's renderer has no retry and gives
    /// pages limited time), and a page that never settles may be indexed half-built.
    ///
    /// ## Example
    /// ```html
    /// <div id="root"></div>
    /// <script>render(window.__DATA__.product)</script>   <!-- TypeError: … undefined -->
    /// ```
    ///
    /// ## How to fix
    /// Open the page with the browser's console open, fix the errors quoted, and make the
    /// content not depend on a script that can fail (render it on the server). For a timeout,
    /// find what keeps the page busy (an endless loop, a long poll, a request that never ends).
    pub struct Failed {
        id: "render/failed",
        severity: Warning,
        summary: "A page fails to render: an error, a crash or a timeout leaves it empty or half-built",
    }
}

/// Script errors quoted per page (the renderer keeps up to 50).
const ERRORS_QUOTED: usize = 3;
/// Characters quoted of each error.
const ERROR_CHARS: usize = 300;

impl Rule for Failed {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, _page, rendered) in site.rendered() {
            let message = match &rendered.outcome {
                RenderOutcome::Failed { reason } => {
                    format!("the page failed to render ({reason}): Google has no rendered page to index")
                }
                RenderOutcome::TimedOut => "the page did not settle within its rendering time budget: what Google indexes may be half-built".to_owned(),
                RenderOutcome::Settled if rendered.text_length == 0 && !rendered.errors.is_empty() => {
                    "script errors leave the rendered page without text: Google may index it empty".to_owned()
                }
                RenderOutcome::Settled => continue,
            };
            let mut occurrence =
                Occurrence::new(resource.url.as_str(), message).evidence(Evidence::Note {
                    text: format!(
                        "rendered text: {} characters; {} requests; {} script errors",
                        rendered.text_length,
                        rendered.requests,
                        rendered.errors.len()
                    ),
                });
            for error in rendered.errors.iter().take(ERRORS_QUOTED) {
                occurrence = occurrence.evidence(Evidence::Note {
                    text: format!("script error: {}", shortened(error, ERROR_CHARS)),
                });
            }
            out.report(occurrence);
        }
    }
}
