import ArgumentParser

/// `--color auto|always|never`: whether human-readable output uses ANSI styles.
enum ColorMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Styles on a terminal, unless `NO_COLOR` is set or `TERM=dumb`.
    case auto
    /// Styles (and the table layout) even when piped, e.g. for `less -R`.
    case always
    /// Never any escape sequence.
    case never
}
