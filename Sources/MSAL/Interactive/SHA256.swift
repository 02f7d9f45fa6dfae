import Foundation

/// SHA-256 (FIPS 180-4 §6.2), written out because Foundation on Linux has no digest API and the
/// `MSAL` module takes no dependencies. Used for the PKCE `S256` challenge (RFC 7636 §4.2); it is
/// not tuned for bulk data (a few MB/s in a debug build).
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Data("ab".utf8))
/// hasher.update(Data("c".utf8))
/// let digest = hasher.finalize()      // 32 bytes: ba7816bf…
/// let same = SHA256.hash(Data("abc".utf8))
/// ```
package struct SHA256: Sendable {
    /// The digest length in bytes.
    package static let byteCount = 32

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes (§4.2.2).
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The first 32 bits of the fractional parts of the square roots of the first 8 primes (§5.3.3).
    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    private var state = SHA256.initialState
    /// Bytes not yet hashed (always fewer than 64 between calls).
    private var pending: [UInt8] = []
    /// Message length so far, in bytes.
    private var length: UInt64 = 0

    /// A hasher with nothing hashed yet.
    package init() {
        pending.reserveCapacity(64)
    }

    /// The digest of `data` in one call.
    package static func hash(_ data: some Sequence<UInt8>) -> Data {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalize()
    }

    /// Adds `data` to the message.
    package mutating func update(_ data: some Sequence<UInt8>) {
        for byte in data {
            pending.append(byte)
            length &+= 1
            if pending.count == 64 {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Pads the message (§5.1.1: a 1 bit, zeros, the bit length as 64 bits big-endian) and returns
    /// the 32-byte digest. The hasher is used up: call it once.
    package mutating func finalize() -> Data {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        // Room for the 8-byte length at the end of the last block: 56 mod 64.
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        for start in stride(from: 0, to: tail.count, by: 64) {
            compress(tail[start..<start + 64])
        }
        pending.removeAll()
        var digest = Data(capacity: Self.byteCount)
        for word in state {
            digest.append(contentsOf: [
                UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
                UInt8(truncatingIfNeeded: word),
            ])
        }
        return digest
    }

    /// Hashes one 64-byte block into `state` (§6.2.2).
    private mutating func compress(_ block: some Collection<UInt8>) {
        let bytes = Array(block)
        var schedule = [UInt32](repeating: 0, count: 64)
        for index in 0..<16 {
            schedule[index] =
                UInt32(bytes[4 * index]) << 24 | UInt32(bytes[4 * index + 1]) << 16 | UInt32(bytes[4 * index + 2]) << 8
                | UInt32(bytes[4 * index + 3])
        }
        for index in 16..<64 {
            let s0 = rotr(schedule[index - 15], 7) ^ rotr(schedule[index - 15], 18) ^ (schedule[index - 15] >> 3)
            let s1 = rotr(schedule[index - 2], 17) ^ rotr(schedule[index - 2], 19) ^ (schedule[index - 2] >> 10)
            schedule[index] = schedule[index - 16] &+ s0 &+ schedule[index - 7] &+ s1
        }

        var a = state[0]
        var b = state[1]
        var c = state[2]
        var d = state[3]
        var e = state[4]
        var f = state[5]
        var g = state[6]
        var h = state[7]
        for index in 0..<64 {
            let sigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choose = (e & f) ^ (~e & g)
            let t1 = h &+ sigma1 &+ choose &+ Self.roundConstants[index] &+ schedule[index]
            let sigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = sigma0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ t2
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    private func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}
