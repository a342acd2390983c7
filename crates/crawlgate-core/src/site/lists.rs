//! A URL's evidence lists out of memory: the first links to it, its references and the sitemap
//! entries listing it. Past [`Bounds::pages_in_memory`](crate::crawl::Bounds) the crawl writes
//! the lists it holds to the page store from time to time, and at its end puts each such URL's
//! lists, merged, in one record there ([`ListsRecord`]); the resource keeps where
//! ([`StoredLists`]) and [`Site::link_samples`](super::Site::link_samples) and its siblings read
//! them back.

use super::page_store::PageKey;
use super::{LinkSample, Reference, ReferenceKind, SitemapListing};
use crate::signals::LinkRel;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::num::NonZeroU32;
use std::sync::Arc;
use thin_vec::ThinVec;
use url::Url;

/// A URL's lists: held while the crawl runs, or in the page store once it ended past
/// `--pages-in-memory`. One enum, not the held lists beside an `Option` of where they are stored:
/// the stored variant fits in the held lists' room, so a resource pays nothing for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Lists {
    Held(HeldLists),
    Stored(StoredLists),
}

// Sixteen bytes less per known URL than the three lists beside an `Option<StoredLists>`.
const _: () = assert!(std::mem::size_of::<Lists>() == std::mem::size_of::<HeldLists>());

impl Default for Lists {
    fn default() -> Self {
        Lists::Held(HeldLists::default())
    }
}

impl Lists {
    /// The lists to add to, while the crawl runs. `None` once stored, which only the crawl's
    /// end does: nothing records after it.
    pub(crate) fn held_mut(&mut self) -> Option<&mut HeldLists> {
        match self {
            Lists::Held(held) => Some(held),
            Lists::Stored(_) => None,
        }
    }

    /// How many entries the lists hold: none once stored.
    pub(crate) fn held_len(&self) -> usize {
        match self {
            Lists::Held(held) => held.samples.len() + held.references.len() + held.listed_in.len(),
            Lists::Stored(_) => 0,
        }
    }
}

/// A URL's lists held in memory: each keeps the first few, in a fixed order whatever the order
/// of arrival (the crawl's discovery keeps them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct HeldLists {
    /// The first `<a href>` links to the URL, by linking page and line
    /// ([`InboundLinks`](super::InboundLinks) counts them all).
    pub(crate) samples: ThinVec<LinkSample>,
    /// Pages referencing the URL as an asset, canonical, hreflang alternate or redirect
    /// target, and sitemaps naming it as an `xhtml:link` hreflang alternate (`from` is the
    /// sitemap URL): the first few;
    /// [`Resource::other_references`](super::Resource::other_references) counts the rest.
    pub(crate) references: ThinVec<Reference>,
    /// Sitemap entries listing the URL, by sitemap and line.
    pub(crate) listed_in: ThinVec<SitemapListing>,
}

/// Where a resource's lists are in the page store, and how many sitemap entries list it (rules
/// ask that of every URL, so it stays at hand).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StoredLists {
    offset: u64,
    /// A record is never empty (no encoder writes one).
    len: NonZeroU32,
    pub(crate) listings: u32,
}

impl StoredLists {
    /// `None` for an empty record, which no encoder writes.
    pub(crate) fn new(key: PageKey, listings: u32) -> Option<Self> {
        Some(StoredLists {
            offset: key.offset,
            len: NonZeroU32::new(key.len)?,
            listings,
        })
    }

    pub(crate) fn key(self) -> PageKey {
        PageKey {
            offset: self.offset,
            len: self.len.get(),
        }
    }
}

/// One URL's lists as a record, URLs as text (short field names: there is one per URL). The
/// crawl's spilled blocks hold the same records, partial, by slot.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ListsRecord<'a> {
    #[serde(borrow, default, rename = "s", skip_serializing_if = "Vec::is_empty")]
    pub(crate) samples: Vec<SampleEntry<'a>>,
    #[serde(borrow, default, rename = "r", skip_serializing_if = "Vec::is_empty")]
    pub(crate) references: Vec<ReferenceEntry<'a>>,
    #[serde(borrow, default, rename = "l", skip_serializing_if = "Vec::is_empty")]
    pub(crate) listings: Vec<ListingEntry<'a>>,
}

/// A [`LinkSample`]: the linking page, the line, the `rel` tokens as bits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SampleEntry<'a>(
    #[serde(borrow)] pub(crate) Cow<'a, str>,
    pub(crate) Option<NonZeroU32>,
    pub(crate) u8,
);

/// A [`Reference`]: the referring URL, the kind, the line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ReferenceEntry<'a>(
    #[serde(borrow)] pub(crate) Cow<'a, str>,
    pub(crate) ReferenceKind,
    pub(crate) Option<NonZeroU32>,
);

/// A [`SitemapListing`]: the sitemap, the line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ListingEntry<'a>(#[serde(borrow)] pub(crate) Cow<'a, str>, pub(crate) u32);

impl<'a> ListsRecord<'a> {
    /// The lists held in memory, borrowed.
    pub(crate) fn of(held: &'a HeldLists) -> Self {
        ListsRecord {
            samples: held
                .samples
                .iter()
                .map(|s| SampleEntry(s.from.as_str().into(), s.line, rel_bits(s.rel)))
                .collect(),
            references: held
                .references
                .iter()
                .map(|r| ReferenceEntry(r.from.as_str().into(), r.kind, r.line))
                .collect(),
            listings: held
                .listed_in
                .iter()
                .map(|l| ListingEntry(l.sitemap.as_str().into(), l.line))
                .collect(),
        }
    }

    /// Owning its text: a record read from a buffer outlives the buffer.
    pub(crate) fn into_owned(self) -> ListsRecord<'static> {
        ListsRecord {
            samples: self
                .samples
                .into_iter()
                .map(|SampleEntry(from, line, rel)| {
                    SampleEntry(from.into_owned().into(), line, rel)
                })
                .collect(),
            references: self
                .references
                .into_iter()
                .map(|ReferenceEntry(from, kind, line)| {
                    ReferenceEntry(from.into_owned().into(), kind, line)
                })
                .collect(),
            listings: self
                .listings
                .into_iter()
                .map(|ListingEntry(sitemap, line)| ListingEntry(sitemap.into_owned().into(), line))
                .collect(),
        }
    }
}

/// The link samples of `lists`, URLs parsed.
pub(crate) fn link_samples(lists: &ListsRecord<'_>) -> Result<Vec<LinkSample>, url::ParseError> {
    lists
        .samples
        .iter()
        .map(|SampleEntry(from, line, rel)| {
            Ok(LinkSample {
                from: Arc::new(Url::parse(from)?),
                line: *line,
                rel: rel_of(*rel),
            })
        })
        .collect()
}

/// The references of `lists`, URLs parsed.
pub(crate) fn references(lists: &ListsRecord<'_>) -> Result<Vec<Reference>, url::ParseError> {
    lists
        .references
        .iter()
        .map(|ReferenceEntry(from, kind, line)| {
            Ok(Reference {
                from: Arc::new(Url::parse(from)?),
                kind: *kind,
                line: *line,
            })
        })
        .collect()
}

/// The sitemap listings of `lists`, URLs parsed.
pub(crate) fn listings(lists: &ListsRecord<'_>) -> Result<Vec<SitemapListing>, url::ParseError> {
    lists
        .listings
        .iter()
        .map(|ListingEntry(sitemap, line)| {
            Ok(SitemapListing {
                sitemap: Arc::new(Url::parse(sitemap)?),
                line: *line,
            })
        })
        .collect()
}

fn rel_bits(rel: LinkRel) -> u8 {
    u8::from(rel.nofollow) | u8::from(rel.ugc) << 1 | u8::from(rel.sponsored) << 2
}

fn rel_of(bits: u8) -> LinkRel {
    LinkRel {
        nofollow: bits & 1 != 0,
        ugc: bits & 2 != 0,
        sponsored: bits & 4 != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signals::AssetKind;

    #[test]
    fn a_record_gives_back_the_lists_it_was_made_of() {
        let page = Arc::new(Url::parse("https://e.com/a?q=\"x\"").unwrap());
        let sitemap = Arc::new(Url::parse("https://e.com/sitemap.xml").unwrap());
        let samples: Vec<LinkSample> = (0u8..8)
            .map(|bits| LinkSample {
                from: Arc::clone(&page),
                line: NonZeroU32::new(u32::from(bits)),
                rel: rel_of(bits),
            })
            .collect();
        let references = vec![
            Reference {
                from: Arc::clone(&page),
                kind: ReferenceKind::Asset(AssetKind::Stylesheet),
                line: NonZeroU32::new(3),
            },
            Reference {
                from: Arc::clone(&sitemap),
                kind: ReferenceKind::Hreflang,
                line: None,
            },
        ];
        let listings = vec![SitemapListing {
            sitemap: Arc::clone(&sitemap),
            line: 7,
        }];
        let held = HeldLists {
            samples: samples.iter().cloned().collect(),
            references: references.iter().cloned().collect(),
            listed_in: listings.iter().cloned().collect(),
        };
        let bytes = serde_json::to_vec(&ListsRecord::of(&held)).unwrap();
        let read: ListsRecord<'_> = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(link_samples(&read).unwrap(), samples);
        assert_eq!(super::references(&read).unwrap(), references);
        assert_eq!(super::listings(&read).unwrap(), listings);
        assert_eq!(read.clone().into_owned(), read);
        let empty = serde_json::to_vec(&ListsRecord::default()).unwrap();
        assert_eq!(empty, b"{}");
    }
}
