//! hreflang values as Google reads them: `x-default`, or an ISO 639-1 language, optionally
//! followed by an ISO 15924 script and/or an ISO 3166-1 alpha-2 region (`en`, `en-GB`,
//! `zh-Hant`, `zh-Hant-TW`). A region alone and UN M.49 regions (`es-419`) are not supported.
//!
//! The code lists are those of the Debian `iso-codes` package (4.15.0); scripts are checked by
//! shape only (four letters), as Google documents no list for them.

/// Whether `code` is a valid hreflang value (compared case-insensitively).
///
/// ```
/// use crawlgate_core::sitemap::is_valid_hreflang;
/// assert!(is_valid_hreflang("en-GB"));
/// assert!(is_valid_hreflang("x-default"));
/// assert!(!is_valid_hreflang("en-UK")); // the ISO code is GB
/// assert!(!is_valid_hreflang("es-419"));
/// ```
pub fn is_valid_hreflang(code: &str) -> bool {
    hreflang_problem(code).is_none()
}

/// Why `code` is not a valid hreflang value, or `None` when it is.
pub(crate) fn hreflang_problem(code: &str) -> Option<String> {
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
    let mut rest: Vec<&str> = parts.collect();
    if rest.len() > 2 {
        return Some("it has more parts than language-script-region".to_owned());
    }
    if rest.len() == 2 {
        let script = rest.remove(0);
        if !(script.len() == 4 && is_alpha(script)) {
            return Some(format!("`{script}` is not an ISO 15924 script code"));
        }
    }
    match rest.first() {
        None => None,
        Some(part) if part.len() == 4 && is_alpha(part) => None,
        Some(region) if is_region(region) => None,
        Some(region) if !region.is_empty() && region.bytes().all(|byte| byte.is_ascii_digit()) => {
            Some(format!(
                "`{region}` is a UN M.49 region, which Google does not support; use an ISO 3166-1 \
             country code"
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
    text.len() == 2
        && is_alpha(text)
        && ISO_639_1
            .binary_search(&text.to_ascii_lowercase().as_str())
            .is_ok()
}

fn is_region(text: &str) -> bool {
    text.len() == 2
        && is_alpha(text)
        && ISO_3166_1_ALPHA_2
            .binary_search(&text.to_ascii_uppercase().as_str())
            .is_ok()
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
    fn tables_are_sorted_for_binary_search() {
        assert!(ISO_639_1.is_sorted());
        assert!(ISO_3166_1_ALPHA_2.is_sorted());
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
