//! The smallest robots.txt edit that lets crawlers fetch URLs they are refused, proven over every
//! URL the caller knows.
//!
//! [`propose`] takes the file, the crawlers (token fallback chains, as for
//! [`RobotsTxt::agent`]), the [`Target`]s (a path one crawler must be allowed to fetch) and the
//! known paths. Targets are grouped by the `Disallow` rule that refuses them; for each rule it
//! tries, narrowest first, an `Allow: PREFIX*.EXT$` per file extension (for many assets under a
//! plain prefix), an exact `Allow: PATH$` per target (each inserted right before the rule, so
//! it joins the rule's group), and removing the rule (the only candidate for `Disallow: /`).
//! Every candidate is checked with the [`VerdictDiff`] engine over the known paths: the first whose flips
//! are exactly the targets wins; when none is exact, the one that frees every target with the
//! fewest other flips is kept and its [`Proof`] lists what else it frees, so nothing is hidden.
//!
//! ```
//! use crawlgate_robots::suggest::{Edit, Target, propose};
//!
//! let body = b"User-agent: *\nDisallow: /assets/\nDisallow: /account/\n";
//! let targets = [Target { crawler: 0, path: "/assets/site.css" }];
//! let known = ["/", "/assets/site.css", "/assets/logo.png", "/account/"];
//! let proposals = propose(body, &[&["googlebot"]], &targets, &known);
//! let proposal = &proposals.proposals[0];
//! // An exact Allow frees the stylesheet and nothing else (removing line 2 would free logo.png).
//! assert_eq!(
//!     proposal.edits,
//!     [Edit::Insert { before: 2, text: "Allow: /assets/site.css$".into() }]
//! );
//! assert!(proposal.proof.is_exact());
//! ```

use crate::diff::{Side, VerdictDiff};
use crate::{Directive, RobotsTxt, split_lines_with_ends};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Exact `Allow:` lines one proposal may add; past it only wider edits are tried.
pub const MAX_EXACT_ALLOWS: usize = 25;

/// Flips a [`Proof`] lists of each kind (intended, other); all are counted.
pub const MAX_LISTED_FLIPS: usize = 100;

/// One line edit, by 1-based line number of the original file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Edit {
    /// A new line `text` before original line `before` (one past the last line appends).
    Insert { before: u32, text: String },
    /// Original line `line` removed.
    Remove { line: u32 },
}

impl Edit {
    fn line(&self) -> u32 {
        match self {
            Edit::Insert { before, .. } => *before,
            Edit::Remove { line } => *line,
        }
    }
}

/// `edits` applied to `body`: every untouched byte kept, inserted lines ended as the line they
/// precede is (or as the file's first line is, when it has no end), duplicate edits applied once.
pub fn apply(body: &[u8], edits: &[Edit]) -> Vec<u8> {
    let lines: Vec<(&[u8], &[u8])> = split_lines_with_ends(body).collect();
    let default_end: &[u8] = lines
        .iter()
        .map(|(_, end)| *end)
        .find(|end| !end.is_empty())
        .unwrap_or(b"\n");
    let mut edits: Vec<&Edit> = edits.iter().collect();
    edits.sort_by_key(|edit| (edit.line(), matches!(edit, Edit::Remove { .. })));
    edits.dedup();
    let mut out = Vec::with_capacity(body.len() + 64 * edits.len());
    let mut pending = edits.into_iter().peekable();
    let last = u32::try_from(lines.len()).unwrap_or(u32::MAX);
    for number in 1..=last.saturating_add(1) {
        let line = lines.get(number as usize - 1);
        let mut removed = false;
        while let Some(edit) = pending.next_if(|edit| edit.line() <= number) {
            match edit {
                Edit::Insert { text, .. } => {
                    // A last line without an end gets one before text follows it.
                    if out.last().is_some_and(|b| *b != b'\n' && *b != b'\r') {
                        out.extend_from_slice(default_end);
                    }
                    out.extend_from_slice(text.as_bytes());
                    let end =
                        line.map_or(
                            default_end,
                            |(_, end)| {
                                if end.is_empty() { default_end } else { end }
                            },
                        );
                    out.extend_from_slice(end);
                }
                Edit::Remove { line: at } => removed |= *at == number,
            }
        }
        if let Some((text, end)) = line
            && !removed
        {
            out.extend_from_slice(text);
            out.extend_from_slice(end);
        }
    }
    out
}

/// A path (as the matcher reads it: [`path_params_query`](crate::path_params_query)) that
/// crawler number `crawler` must be allowed to fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Target<'a> {
    pub crawler: usize,
    pub path: &'a str,
}

/// What a proposal does to the rule that refuses its targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProposalKind {
    /// The rule is removed.
    RemoveRule,
    /// `Allow: PREFIX*.EXT$` for each extension of the targets.
    AllowExtensions,
    /// `Allow: PATH$` for each target.
    AllowExact,
}

/// An edit for the targets one rule refuses, with its proof.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Proposal {
    /// The `Disallow` rule that refuses the targets.
    pub rule_line: u32,
    pub rule_pattern: String,
    pub kind: ProposalKind,
    pub edits: Vec<Edit>,
    /// Indices of the targets (as given to [`propose`]) this rule refuses.
    pub targets: Vec<usize>,
    pub proof: Proof,
}

/// What an edit changes over the known paths.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Proof {
    /// Paths × crawlers compared.
    pub compared: u64,
    /// Flips of a target (refused before, allowed after).
    pub intended: u64,
    /// Every other flip, whichever way.
    pub other: u64,
    /// The first [`MAX_LISTED_FLIPS`] of each, intended first.
    pub listed: Vec<ProvenFlip>,
    /// Targets the edit leaves refused (indices as given to [`propose`]).
    pub still_refused: Vec<usize>,
}

impl Proof {
    /// The edit frees every target and changes nothing else.
    pub fn is_exact(&self) -> bool {
        self.other == 0 && self.still_refused.is_empty()
    }
}

/// One path whose verdict an edit changes for one crawler.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProvenFlip {
    pub path: String,
    pub crawler: usize,
    /// Whether the flip is one of the targets.
    pub intended: bool,
    /// The verdicts with what decided them: `disallowed (line 7: Disallow: /shop)` (line numbers
    /// of each side's own file).
    pub before: String,
    pub after: String,
}

/// What [`propose`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Proposals {
    /// One per refusing rule, in line order.
    pub proposals: Vec<Proposal>,
    /// Targets already allowed: nothing to do.
    pub already_allowed: Vec<usize>,
}

/// The smallest edit per refusing rule that frees `targets`, each proven over `known` (the
/// targets are compared too, whether or not `known` lists them). `body` is read as Google's
/// crawler reads a fetched file ([`RobotsTxt::parse_fetched`]).
pub fn propose(
    body: &[u8],
    crawlers: &[&[&str]],
    targets: &[Target<'_>],
    known: &[&str],
) -> Proposals {
    let old = RobotsTxt::parse_fetched(body);
    let agents: Vec<_> = crawlers.iter().map(|tokens| old.agent(tokens)).collect();
    let mut by_rule: BTreeMap<u32, (String, Vec<usize>)> = BTreeMap::new();
    let mut already_allowed = Vec::new();
    for (index, target) in targets.iter().enumerate() {
        let rule = agents
            .get(target.crawler)
            .and_then(|agent| agent.deciding_rule(target.path))
            .filter(|rule| rule.directive == Directive::Disallow);
        match rule {
            Some(rule) => {
                by_rule
                    .entry(rule.line)
                    .or_insert_with(|| (rule.pattern.clone(), Vec::new()))
                    .1
                    .push(index);
            }
            None => already_allowed.push(index),
        }
    }
    let proposals = by_rule
        .into_iter()
        .filter_map(|(line, (pattern, indices))| {
            best_proposal(
                body, &old, crawlers, targets, known, line, &pattern, indices,
            )
        })
        .collect();
    Proposals {
        proposals,
        already_allowed,
    }
}

#[allow(clippy::too_many_arguments)] // one rule's context, used once
fn best_proposal(
    body: &[u8],
    old: &RobotsTxt,
    crawlers: &[&[&str]],
    targets: &[Target<'_>],
    known: &[&str],
    line: u32,
    pattern: &str,
    indices: Vec<usize>,
) -> Option<Proposal> {
    let mine: Vec<Target<'_>> = indices.iter().map(|&i| targets[i]).collect();
    let mut best: Option<(ProposalKind, Vec<Edit>, Proof)> = None;
    for (kind, edits) in candidates(line, pattern, &mine) {
        let proof = prove(body, old, &edits, crawlers, &mine, known);
        let better = match &best {
            None => true,
            Some((_, _, kept)) => {
                (proof.still_refused.len(), proof.other) < (kept.still_refused.len(), kept.other)
            }
        };
        let exact = proof.is_exact();
        if better {
            best = Some((kind, edits, proof));
        }
        if exact {
            break;
        }
    }
    let (kind, edits, mut proof) = best?;
    // The proof counted positions in this rule's own targets; name them as the caller did.
    proof.still_refused = proof.still_refused.iter().map(|&i| indices[i]).collect();
    Some(Proposal {
        rule_line: line,
        rule_pattern: pattern.to_owned(),
        kind,
        edits,
        targets: indices,
        proof,
    })
}

/// The edits to try for one rule, narrowest first. An exact `Allow:` changes only its own
/// URL, known or not, so it is proven for every URL; an `Allow:` by extension frees the other
/// files of that type under the prefix too (what rendering needs); removing the rule frees
/// everything it refused, including what a crawl that obeyed it never saw. A rule that
/// refuses everything (`Disallow: /`) is removed first: freeing the site is its fix.
fn candidates(line: u32, pattern: &str, targets: &[Target<'_>]) -> Vec<(ProposalKind, Vec<Edit>)> {
    let allow = |value: String| Edit::Insert {
        before: line,
        text: format!("Allow: {value}"),
    };
    let removal = (ProposalKind::RemoveRule, vec![Edit::Remove { line }]);
    if matches!(pattern, "/" | "/*") {
        return vec![removal];
    }
    let paths: BTreeSet<&str> = targets.iter().map(|target| target.path).collect();
    let mut candidates = Vec::new();
    let plain_prefix = !pattern.contains(['*', '$']);
    let extensions: Option<BTreeSet<&str>> = paths.iter().map(|path| extension(path)).collect();
    if let Some(extensions) = extensions
        && plain_prefix
        && extensions.len() <= 3
        && extensions.len() < paths.len()
    {
        let edits = extensions
            .into_iter()
            .map(|ext| allow(format!("{pattern}*.{ext}$")))
            .collect();
        candidates.push((ProposalKind::AllowExtensions, edits));
    }
    if paths.len() <= MAX_EXACT_ALLOWS {
        let edits = paths
            .into_iter()
            .map(|path| allow(format!("{path}$")))
            .collect();
        candidates.push((ProposalKind::AllowExact, edits));
    }
    candidates.push(removal);
    candidates
}

/// A file extension of one to five letters or digits on the last segment of a path without a
/// query (`/a/b.css` → `css`).
fn extension(path: &str) -> Option<&str> {
    if path.contains(['?', ';']) {
        return None;
    }
    let segment = path.rsplit('/').next()?;
    let (stem, ext) = segment.rsplit_once('.')?;
    let fits = !stem.is_empty()
        && (1..=5).contains(&ext.len())
        && ext.bytes().all(|b| b.is_ascii_alphanumeric());
    fits.then_some(ext)
}

/// The proof of `edits` on `body`: every flip over `known` and the targets, for every crawler.
pub fn prove_edits(
    body: &[u8],
    edits: &[Edit],
    crawlers: &[&[&str]],
    targets: &[Target<'_>],
    known: &[&str],
) -> Proof {
    prove(
        body,
        &RobotsTxt::parse_fetched(body),
        edits,
        crawlers,
        targets,
        known,
    )
}

fn prove(
    body: &[u8],
    old: &RobotsTxt,
    edits: &[Edit],
    crawlers: &[&[&str]],
    targets: &[Target<'_>],
    known: &[&str],
) -> Proof {
    let new = RobotsTxt::parse_fetched(&apply(body, edits));
    let diff = VerdictDiff::new(Side::Rules(old), Side::Rules(&new), crawlers);
    let wanted: BTreeMap<Target<'_>, usize> = targets
        .iter()
        .enumerate()
        .map(|(index, target)| (*target, index))
        .collect();
    let mut freed = vec![false; targets.len()];
    let mut proof = Proof::default();
    let mut other_listed = Vec::new();
    let paths: BTreeSet<&str> = known
        .iter()
        .copied()
        .chain(targets.iter().map(|target| target.path))
        .collect();
    for path in paths {
        proof.compared += crawlers.len() as u64;
        diff.compare(path, |flip| {
            let target = wanted
                .get(&Target {
                    crawler: flip.profile,
                    path,
                })
                .filter(|_| !flip.old.allowed);
            let listed = if let Some(&index) = target {
                freed[index] = true;
                proof.intended += 1;
                &mut proof.listed
            } else {
                proof.other += 1;
                &mut other_listed
            };
            if listed.len() < MAX_LISTED_FLIPS {
                listed.push(ProvenFlip {
                    path: path.to_owned(),
                    crawler: flip.profile,
                    intended: target.is_some(),
                    before: flip.old.to_string(),
                    after: flip.new.to_string(),
                });
            }
        });
    }
    proof.listed.extend(other_listed);
    proof.still_refused = freed
        .iter()
        .enumerate()
        .filter(|(_, freed)| !**freed)
        .map(|(index, _)| index)
        .collect();
    proof
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edits_of(body: &str, targets: &[(usize, &str)], known: &[&str]) -> Vec<Proposal> {
        let targets: Vec<Target<'_>> = targets
            .iter()
            .map(|&(crawler, path)| Target { crawler, path })
            .collect();
        propose(
            body.as_bytes(),
            &[&["googlebot"], &["bingbot"]],
            &targets,
            known,
        )
        .proposals
    }

    #[test]
    fn apply_keeps_every_untouched_byte_and_each_line_end() {
        let body = b"User-agent: *\r\nDisallow: /a\r\nDisallow: /b";
        let edits = [
            Edit::Insert {
                before: 2,
                text: "Allow: /a/x$".into(),
            },
            Edit::Remove { line: 3 },
        ];
        assert_eq!(
            apply(body, &edits),
            b"User-agent: *\r\nAllow: /a/x$\r\nDisallow: /a\r\n"
        );
        assert_eq!(apply(body, &[]), body);
        let appended = apply(
            b"User-agent: *",
            &[Edit::Insert {
                before: 2,
                text: "Disallow: /x".into(),
            }],
        );
        assert_eq!(appended, b"User-agent: *\nDisallow: /x\n");
    }

    #[test]
    fn a_rule_that_refuses_everything_is_removed() {
        let proposals = edits_of(
            "User-agent: *\nDisallow: /\nDisallow: /cart\n",
            &[
                (0, "/account/"),
                (1, "/account/"),
                (0, "/account/orders"),
                (1, "/account/orders"),
            ],
            &["/account/", "/account/orders"],
        );
        assert_eq!(proposals.len(), 1);
        assert_eq!(proposals[0].kind, ProposalKind::RemoveRule);
        assert_eq!(proposals[0].edits, [Edit::Remove { line: 2 }]);
        assert!(proposals[0].proof.is_exact());
        assert_eq!(proposals[0].proof.intended, 4);
    }

    #[test]
    fn wider_edits_only_when_exact_allows_are_too_many() {
        let paths: Vec<String> = (0..=MAX_EXACT_ALLOWS).map(|n| format!("/p/{n}")).collect();
        let targets: Vec<(usize, &str)> = paths.iter().map(|p| (0, p.as_str())).collect();
        let known: Vec<&str> = paths.iter().map(String::as_str).collect();
        let proposals = edits_of("User-agent: googlebot\nDisallow: /p/\n", &targets, &known);
        assert_eq!(proposals[0].kind, ProposalKind::RemoveRule);
        assert!(proposals[0].proof.is_exact());
    }

    #[test]
    fn collateral_is_counted_not_hidden() {
        // The target is refused for Googlebot only, but the `*` rule refuses Bingbot too.
        let proposals = edits_of(
            "User-agent: *\nDisallow: /\n",
            &[(0, "/account/")],
            &["/account/"],
        );
        let proof = &proposals[0].proof;
        assert!(!proof.is_exact());
        assert_eq!((proof.intended, proof.other), (1, 1));
        assert!(proof.still_refused.is_empty());
        assert!(
            proof
                .listed
                .iter()
                .any(|flip| !flip.intended && flip.crawler == 1)
        );
    }

    #[test]
    fn assets_under_a_prefix_get_an_allow_per_extension() {
        let proposals = edits_of(
            "User-agent: googlebot\nDisallow: /assets/\n",
            &[
                (0, "/assets/a.css"),
                (0, "/assets/b.css"),
                (0, "/assets/app.js"),
            ],
            &[
                "/assets/a.css",
                "/assets/b.css",
                "/assets/app.js",
                "/assets/x.pdf",
            ],
        );
        assert_eq!(proposals[0].kind, ProposalKind::AllowExtensions);
        assert_eq!(
            proposals[0].edits,
            [
                Edit::Insert {
                    before: 2,
                    text: "Allow: /assets/*.css$".into()
                },
                Edit::Insert {
                    before: 2,
                    text: "Allow: /assets/*.js$".into()
                },
            ]
        );
        assert!(proposals[0].proof.is_exact());
    }

    #[test]
    fn exact_allows_when_wider_edits_free_other_urls() {
        let proposals = edits_of(
            "User-agent: googlebot\nDisallow: /search\n",
            &[(0, "/search?q=tents")],
            &["/search?q=tents", "/search?q=boots"],
        );
        assert_eq!(proposals[0].kind, ProposalKind::AllowExact);
        assert_eq!(
            proposals[0].edits,
            [Edit::Insert {
                before: 2,
                text: "Allow: /search?q=tents$".into()
            }]
        );
        assert!(proposals[0].proof.is_exact());
    }

    #[test]
    fn targets_already_allowed_need_nothing() {
        let targets = [Target {
            crawler: 0,
            path: "/open",
        }];
        let found = propose(b"User-agent: *\nDisallow: /x\n", &[&["a"]], &targets, &[]);
        assert!(found.proposals.is_empty());
        assert_eq!(found.already_allowed, [0]);
    }

    #[test]
    fn an_edit_past_googles_read_limit_is_proven_useless() {
        let mut body = b"User-agent: *\n".to_vec();
        body.resize(crate::GOOGLE_MAX_ROBOTS_BYTES + 10, b'\n');
        // A rule past the limit never applies, so nothing here refuses anything.
        body.extend_from_slice(b"Disallow: /x\n");
        let targets = [Target {
            crawler: 0,
            path: "/x",
        }];
        let found = propose(&body, &[&["a"]], &targets, &[]);
        assert_eq!(found.already_allowed, [0]);
    }
}
