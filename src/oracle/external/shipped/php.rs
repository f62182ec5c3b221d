//! The PHP adapter: `parse_url`.

use super::{Accessors, Language, Reproduce, Shipped};

pub(super) const PARSE_URL: Shipped = Shipped::new(
    "php-parse-url",
    &[(
        "php-parse-url.php",
        include_str!("../../../../adapters/php-parse-url.php"),
    )],
    &["php"],
    &["php", "{dir}/php-parse-url.php"],
    "apt-get install php-cli",
)
// PHP has no resolver: pairs are out of its domain.
.reproduce(Reproduce::new(
    Language::Php,
    "$u = parse_url({input});",
    Accessors {
        scheme: Some("$u['scheme'] ?? null"),
        userinfo: None,
        host: Some("$u['host'] ?? null"),
        port: None,
        path: Some("$u['path'] ?? null"),
        query: Some("$u['query'] ?? null"),
        fragment: Some("$u['fragment'] ?? null"),
    },
));
