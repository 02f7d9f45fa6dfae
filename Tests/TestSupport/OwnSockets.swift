import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The sockets this process holds, for tests that check a server closed its very own sockets
/// (by inode, so that another test given the same port next cannot answer for them): the loopback
/// redirect listener's tests and the emulator's live server's.
package enum OwnSockets {
    /// One TCP socket of this process, read from its own descriptor.
    package struct Socket: Hashable, CustomStringConvertible {
        package var inode: UInt64
        /// The local address in text (`127.0.0.1`, `::1`, `0.0.0.0`, …) and port.
        package var address: String
        package var port: UInt16
        /// The peer's port; 0 for a socket with no peer (a listener).
        package var remotePort: UInt16
        package var isListening: Bool
        package var description: String { "\(address) port \(port)\(isListening ? " listening" : "") inode \(inode)" }
    }

    /// The TCP sockets this process holds whose local port is one of `ports` (listeners and
    /// accepted connections alike). Another test may hold a socket on the same port once the one
    /// it had is closed: to tell whether particular sockets are closed, keep their `inode`s and
    /// ask `stillOpen(_:)`, which other tests' sockets cannot answer for.
    ///
    /// Each socket is asked through its own descriptor (`fstat` for the inode, `getsockname`,
    /// `getpeername`, `SO_ACCEPTCONN`), not looked up in /proc/net/tcp: the kernel writes that
    /// table a page at a time, and a socket another test closes meanwhile can make it skip a row.
    package static func tcp(localPorts ports: Set<UInt16>) -> [Socket] {
        ownSocketDescriptors().compactMap { descriptor, inode in
            guard let local = socketAddress(descriptor, getsockname), ports.contains(local.port) else { return nil }
            var listening: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 else { return nil }
            let peer = socketAddress(descriptor, getpeername)
            return Socket(
                inode: inode, address: local.address, port: local.port, remotePort: peer?.port ?? 0, isListening: listening != 0)
        }
    }

    /// Which of `sockets` this process still holds (by inode: a socket another test opens later
    /// on the same port is not one of them).
    package static func stillOpen(_ sockets: [Socket]) -> [Socket] {
        let inodes = Set(ownSocketDescriptors().map(\.inode))
        return sockets.filter { inodes.contains($0.inode) }
    }

    /// The inode of the socket `descriptor` refers to now; nil when it is not an open socket.
    package static func inode(of descriptor: Int32) -> UInt64? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return UInt64(status.st_ino)
    }

    /// Which of the sockets `inodes` this process still holds, through any descriptor.
    package static func stillOpen(inodes: Set<UInt64>) -> Set<UInt64> {
        inodes.intersection(ownSocketDescriptors().map(\.inode))
    }

    /// Every socket descriptor this process has open, with the socket's inode.
    private static func ownSocketDescriptors() -> [(descriptor: Int32, inode: UInt64)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { name in
            guard let descriptor = Int32(name), let inode = inode(of: descriptor) else { return nil }
            return (descriptor, inode)
        }
    }

    /// A TCP socket's address and port from `getsockname` or `getpeername`; nil for another kind.
    private static func socketAddress(
        _ descriptor: Int32, _ call: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> (address: String, port: UInt16)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(descriptor, $0, &length) == 0 }
        }
        guard ok else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(storage.ss_family) {
        case AF_INET:
            var address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }
            guard inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count)) != nil else { return nil }
            return (text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, UInt16(bigEndian: address.sin_port))
        case AF_INET6:
            var address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }
            guard inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count)) != nil else { return nil }
            return (text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, UInt16(bigEndian: address.sin6_port))
        default:
            return nil
        }
    }
}
