import Foundation
import Testing

@testable import MSALRedis

#if canImport(Glibc)
    import Glibc
#endif

/// OpenSSL writes to its socket with `write`, which raises SIGPIPE when the server has closed the
/// connection; a TLS connection's calls run inside `withoutSIGPIPE`
/// (Sources/MSALRedis/Connection/RedisSocket.swift), so that the write fails with EPIPE and the process lives.
@Suite struct BrokenPipeTests {
    @Test func aWriteToAClosedPeerFailsWithEPIPEAndRaisesNothing() throws {
        var pair: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        close(pair[1])
        defer { close(pair[0]) }
        let byte: [UInt8] = [1]
        let (written, error) = withoutSIGPIPE { (write(pair[0], byte, 1), errno) }
        #expect(written == -1 && error == EPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0, "the SIGPIPE raised is taken back")
    }
}
