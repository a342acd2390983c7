//! hreflang values as Google reads them: `x-default`, or an ISO 639-1 language, optionally
//! followed by an ISO 15924 script and/or an ISO 3166-1 alpha-2 region (`en`, `en-GB`,
//! `zh-Hant`, `zh-Hant-TW`). A region alone and UN M.49 regions (`es-419`) are not supported.
//!
//! The code lists are those of the Debian `iso-codes` package (4.15.0); scripts are checked by
//! shape only (four letters), as Google documents no list for them.

/// Whether `code` is a valid hreflang value (compared case-insensitively).
///
/// ```
/// use crawlgate_sitemap::is_valid_hreflang;
/// assert!(is_valid_hreflang("en-GB"));
/// assert!(is_valid_hreflang("x-default"));
/// assert!(!is_valid_hreflang("en-UK")); // the ISO code is GB
/// assert!(!is_valid_hreflang("es-419"));
/// ```
pub fn is_valid_hreflang(code: &str) -> bool {
    hreflang_problem(code).is_none()
}

/// Why `code` is not a valid hreflang value, in words (`` `UK` is not an ISO 3166-1 code; the
/// United Kingdom is `GB` ``), or `None` when it is. The page-level hreflang rules quote it too.
///
/// ```
/// use crawlgate_sitemap::hreflang_problem;
/// assert!(hreflang_problem("en-GB").is_none());
/// assert!(hreflang_problem("en-UK").is_some_and(|why| why.contains("`GB`")));
/// ```
pub fn hreflang_problem(code: &str) -> Option<String> {
    // The common shapes first, without splitting: `ll` and `ll-RR`.
    match code.as_bytes() {
        [_, _] if is_language(code) => return None,
        [_, _, b'-', _, _]
            if code.get(..2).is_some_and(is_language) && code.get(3..).is_some_and(is_region) =>
        {
            return None;
        }
        _ => {}
    }
    if code.eq_ignore_ascii_case("x-default") {
        return None;
    }
    let mut parts = code.split('-');
    let language = parts.next().unwrap_or_default();
    if !is_language(language) {
        return Some(if language.len() == 2 && is_alpha(language) {
            format!("`{language}` is not an ISO 639-1 language code")
        } else {
            "it must start with a two-letter ISO 639-1 language code".to_owned()
        });
    }
    let (script, region) = match (parts.next(), parts.next(), parts.next()) {
        (None, _, _) => (None, None),
        (Some(only), None, _) => {
            if only.len() == 4 && is_alpha(only) {
                (Some(only), None)
            } else {
                (None, Some(only))
            }
        }
        (Some(script), Some(region), None) => (Some(script), Some(region)),
        (Some(_), Some(_), Some(_)) => {
            return Some("it has more parts than language-script-region".to_owned());
        }
    };
    if let Some(script) = script
        && !(script.len() == 4 && is_alpha(script))
    {
        return Some(format!("`{script}` is not an ISO 15924 script code"));
    }
    match region {
        None => None,
        Some(region) if is_region(region) => None,
        Some(region) if !region.is_empty() && region.bytes().all(|byte| byte.is_ascii_digit()) => {
            Some(format!(
                "`{region}` is a UN M.49 region, which Google does not support; use an ISO \
                 3166-1 country code"
            ))
        }
        Some(region) if region.eq_ignore_ascii_case("UK") => {
            Some("`UK` is not an ISO 3166-1 code; the United Kingdom is `GB`".to_owned())
        }
        Some(region) => Some(format!(
            "`{region}` is not an ISO 3166-1 alpha-2 country code"
        )),
    }
}

fn is_alpha(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_alphabetic())
}

fn is_language(text: &str) -> bool {
    two_letter_index(text).is_some_and(|index| contains(&LANGUAGES, index))
}

fn is_region(text: &str) -> bool {
    two_letter_index(text).is_some_and(|index| contains(&REGIONS, index))
}

/// A set of two-letter codes as a 26×26-bit table: this runs for every alternate of a
/// 50,000-URL sitemap, so no allocation and no search.
type CodeSet = [u64; 11];

const LANGUAGES: CodeSet = code_set(&ISO_639_1);
const REGIONS: CodeSet = code_set(&ISO_3166_1_ALPHA_2);

const fn code_set(codes: &[&str]) -> CodeSet {
    let mut set = [0u64; 11];
    let mut i = 0;
    while i < codes.len() {
        let code = codes[i].as_bytes();
        let index = (code[0].to_ascii_lowercase() - b'a') as usize * 26
            + (code[1].to_ascii_lowercase() - b'a') as usize;
        set[index / 64] |= 1 << (index % 64);
        i += 1;
    }
    set
}

fn contains(set: &CodeSet, index: usize) -> bool {
    set.get(index / 64)
        .is_some_and(|word| word & (1 << (index % 64)) != 0)
}

/// The position of a two-letter code (case-insensitive) in a 26×26 table.
fn two_letter_index(text: &str) -> Option<usize> {
    match text.as_bytes() {
        &[a, b] if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => Some(
            usize::from(a.to_ascii_lowercase() - b'a') * 26
                + usize::from(b.to_ascii_lowercase() - b'a'),
        ),
        _ => None,
    }
}

/// ISO 639-1 two-letter language codes, lowercase and sorted.
const ISO_639_1: [&str; 184] = [
    "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bh",
    "bi", "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy", "da",
    "de", "dv", "dz", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "ff", "fi", "fj", "fo", "fr",
    "fy", "ga", "gd", "gl", "gn", "gu", "gv", "ha", "he", "hi", "ho", "hr", "ht", "hu", "hy", "hz",
    "ia", "id", "ie", "ig", "ii", "ik", "io", "is", "it", "iu", "ja", "jv", "ka", "kg", "ki", "kj",
    "kk", "kl", "km", "kn", "ko", "kr", "ks", "ku", "kv", "kw", "ky", "la", "lb", "lg", "li", "ln",
    "lo", "lt", "lu", "lv", "mg", "mh", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "na", "nb",
    "nd", "ne", "ng", "nl", "nn", "no", "nr", "nv", "ny", "oc", "oj", "om", "or", "os", "pa", "pi",
    "pl", "ps", "pt", "qu", "rm", "rn", "ro", "ru", "rw", "sa", "sc", "sd", "se", "sg", "si", "sk",
    "sl", "sm", "sn", "so", "sq", "sr", "ss", "st", "su", "sv", "sw", "ta", "te", "tg", "th", "ti",
    "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty", "ug", "uk", "ur", "uz", "ve", "vi", "vo",
    "wa", "wo", "xh", "yi", "yo", "za", "zh", "zu",
];

/// ISO 3166-1 alpha-2 country codes, uppercase and sorted.
const ISO_3166_1_ALPHA_2: [&str; 249] = [
    "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ",
    "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS",
    "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN",
    "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE",
    "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF",
    "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM",
    "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM",
    "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC",
    "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK",
    "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA",
    "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG",
    "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW",
    "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS",
    "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO",
    "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
    "VN", "VU", "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_code_is_in_its_set_and_nothing_else() {
        for code in ISO_639_1 {
            assert!(is_language(code), "{code}");
        }
        for code in ISO_3166_1_ALPHA_2 {
            assert!(is_region(code), "{code}");
        }
        let count = |set: &CodeSet| set.iter().map(|word| word.count_ones()).sum::<u32>();
        assert_eq!(count(&LANGUAGES) as usize, ISO_639_1.len());
        assert_eq!(count(&REGIONS) as usize, ISO_3166_1_ALPHA_2.len());
        assert!(!is_language("qq") && !is_region("QQ") && !is_language("e1"));
    }

    #[test]
    fn valid_values() {
        for code in [
            "en",
            "EN",
            "en-GB",
            "en-gb",
            "de-AT",
            "zh-Hant",
            "zh-Hant-TW",
            "sr-Latn-RS",
            "x-default",
            "X-Default",
            "pt-BR",
        ] {
            assert!(is_valid_hreflang(code), "{code}");
        }
    }

    #[test]
    fn invalid_values_say_why() {
        let problem = |code: &str| hreflang_problem(code).unwrap_or_default();
        assert!(problem("en-UK").contains("`GB`"));
        assert!(problem("es-419").contains("M.49"));
        assert!(problem("GB").contains("ISO 639-1"));
        assert!(problem("eng").contains("two-letter"));
        assert!(problem("en_GB").contains("two-letter"));
        assert!(problem("xx").contains("`xx`"));
        assert!(problem("en-GB-x").contains("ISO 15924"));
        assert!(problem("en-Latn-GB-extra").contains("more parts"));
        assert!(problem("en-ZZ").contains("`ZZ`"));
        assert!(problem("").contains("two-letter"));
        assert!(problem("en-").contains("``"));
    }
}
