use crawlgate_core::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports each page known to both audits whose snippet and preview directives changed for a
    /// profile (`nosnippet`, `max-snippet`, `max-image-preview`, `max-video-preview`,
    /// `noimageindex`, `notranslate`, `unavailable_after`, `indexifembedded`).
    ///
    /// ## Why is this bad?
    /// These directives shape how the page appears in results: a new `nosnippet` or
    /// `max-snippet:0` removes its description, `max-image-preview:none` its large image. They
    /// are easy to change by accident with a template or header.
    ///
    /// ## Example
    /// ```text
    /// before: max-image-preview:large
    /// after:  max-image-preview:none, nosnippet
    /// ```
    ///
    /// ## How to fix
    /// Restore the directives of the `before` side unless the change was intended.
    pub struct SnippetDirectivesChanged {
        id: "diff/snippet-directives-changed",
        severity: Notice,
        summary: "A page's snippet or preview directives changed",
    }
}
