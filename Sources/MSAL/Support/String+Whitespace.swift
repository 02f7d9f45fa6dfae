extension String {
    /// The string without leading and trailing white space and line breaks: the result of
    /// Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)`, whose set is Unicode's
    /// White_Space property plus U+200B (zero width space), trimmed one Unicode scalar at a time as
    /// Foundation does (StringWhitespaceTests compares the two over every scalar up to U+3100).
    /// Without Foundation's bridging to `NSString`, whose first use costs a fresh process about
    /// 0.1 ms (BENCHMARKS.md, "fresh process"); no copy when there is nothing to trim.
    package var trimmingWhitespaceAndNewlines: String {
        func trimmed(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace || scalar.value == 0x200B }
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last, trimmed(first) || trimmed(last) else { return self }
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, trimmed(scalars[start]) { start = scalars.index(after: start) }
        while end > start, trimmed(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }
}
