//! The PHP adapter: `parse_url`.

use super::{Accessors, Language, Reproduce, Shipped};

/// This family's rows, each at its own position (`Shipped::position`).
pub(super) const ROWS: &[Shipped] = &[Shipped::new(
    "php-parse-url",
    &[(
        "php-parse-url.php",
        include_str!("../../../../adapters/php-parse-url.php"),
    )],
    &["php"],
    &["php", "{dir}/php-parse-url.php"],
    "apt-get install php-cli",
)
.position(13)
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
))
// PHP's http:// stream wrapper splits the URL with php_url_parse_ex, the
// function behind parse_url.
.clients(&["php-file-get-contents"])];
