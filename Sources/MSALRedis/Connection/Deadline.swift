import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A monotonic deadline, in nanoseconds of CLOCK_MONOTONIC.
struct Deadline {
    let nanoseconds: UInt64

    init(after seconds: TimeInterval) {
        nanoseconds = Self.now() &+ UInt64(max(0, seconds) * 1_000_000_000)
    }

    init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// Whichever of the two comes first.
    func earlier(_ other: Deadline) -> Deadline { nanoseconds <= other.nanoseconds ? self : other }

    /// Milliseconds left, at least 0, for `poll`.
    var remainingMilliseconds: Int32 {
        let now = Self.now()
        guard nanoseconds > now else { return 0 }
        return Int32(clamping: (nanoseconds - now + 999_999) / 1_000_000)
    }

    /// Seconds left, at least 0.
    var remainingSeconds: TimeInterval {
        let now = Self.now()
        return nanoseconds > now ? TimeInterval(nanoseconds - now) / 1_000_000_000 : 0
    }

    var hasPassed: Bool { Self.now() >= nanoseconds }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
