import Testing

extension Tag {
    /// Concurrency tests: scripts/test runs every suite tagged `@Suite(.tags(.concurrency))` a second
    /// time under ThreadSanitizer (`scripts/test-filter concurrency` finds them in the source; this
    /// toolchain's `swift test` cannot select by tag).
    @Tag package static var concurrency: Self
}
